package recindex

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"lifezero/datasets"
)

// monthSGF is the shared data's month of records the tests index.
const monthSGF = "../../shared/data/games/tom9d/2005-01.sgf"

// testData imports the first maxGames games of monthSGF and indexes them,
// once per test binary and size.
type testData struct {
	games string // games dataset
	index string // record index
}

var (
	dataOnce sync.Once
	dataDir  string
	dataErr  error
)

// buildTestIndex returns a games dataset and its index for the first 120
// games of monthSGF, built once per test run in a temporary directory.
func buildTestIndex(t testing.TB) testData {
	t.Helper()
	if _, err := os.Stat(monthSGF); err != nil {
		t.Skipf("shared data missing: %s", monthSGF)
	}
	dataOnce.Do(func() {
		dataDir, dataErr = os.MkdirTemp("", "recindex-test-")
		if dataErr != nil {
			return
		}
		ctx := context.Background()
		games := filepath.Join(dataDir, "games")
		_, dataErr = datasets.ImportRecords(ctx, datasets.ImportOptions{
			Inputs: []string{monthSGF}, OutDir: games, MaxGames: 120, Workers: 1,
		})
		if dataErr != nil {
			return
		}
		_, dataErr = Build(ctx, BuildOptions{Datasets: []string{games}, OutDir: filepath.Join(dataDir, "index")})
	})
	if dataErr != nil {
		t.Fatal(dataErr)
	}
	return testData{games: filepath.Join(dataDir, "games"), index: filepath.Join(dataDir, "index")}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if dataDir != "" {
		os.RemoveAll(dataDir)
	}
	os.Exit(code)
}

func openTestIndex(t testing.TB) *Index {
	t.Helper()
	x, err := Open(buildTestIndex(t).index)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}
