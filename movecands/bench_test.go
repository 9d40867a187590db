package movecands

import (
	"context"
	"path/filepath"
	"testing"

	"lifezero/datasets"
)

// BenchmarkBuild19 builds a movecands dataset from 40 tom9d games (every
// position, one worker) and reports positions and candidate moves per
// second: replay, feature extraction and writing the Arrow files together.
func BenchmarkBuild19(b *testing.B) {
	tom := sharedData(b, "games/tom9d")
	games := filepath.Join(b.TempDir(), "games")
	_, err := datasets.ImportRecords(context.Background(), datasets.ImportOptions{
		Inputs: []string{filepath.Join(tom, "2010-12.sgf")}, OutDir: games, MaxGames: 40})
	if err != nil {
		b.Fatal(err)
	}
	e := defaultExtractor(b)
	out := filepath.Join(b.TempDir(), "cands")
	var positions, candidates int64
	for b.Loop() {
		m, err := Build(context.Background(), []string{games}, out, Options{Features: e, Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		s, err := SummaryOf(m)
		if err != nil {
			b.Fatal(err)
		}
		positions += s.Positions
		candidates += s.Candidates
	}
	b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "positions/s")
	b.ReportMetric(float64(candidates)/b.Elapsed().Seconds(), "moves/s")
}
