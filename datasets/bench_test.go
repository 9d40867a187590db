//go:build unix

package datasets

import (
	"context"
	"path/filepath"
	"testing"

	"lifezero/internal/cputime"
)

// benchImport imports inputs b.N times and reports games per second of
// wall time and per second of CPU time (the latter is what to compare on a
// shared machine, where wall time depends on other load).
func benchImport(b *testing.B, inputs []string) {
	out := b.TempDir()
	games := 0
	cpu0 := cputime.Process()
	for b.Loop() {
		m, err := ImportRecords(context.Background(), ImportOptions{Inputs: inputs, OutDir: out})
		if err != nil {
			b.Fatal(err)
		}
		games += int(m.Rows)
	}
	b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(games)/(cputime.Process()-cpu0).Seconds(), "games/cpu-s")
}

// BenchmarkImportRecords imports two months of tom9d (2005-01, 2005-02).
func BenchmarkImportRecords(b *testing.B) {
	tom := sharedData(b, "games/tom9d")
	benchImport(b, []string{filepath.Join(tom, "2005-01.sgf"), filepath.Join(tom, "2005-02.sgf")})
}

// BenchmarkImportTom9dAll imports all of tom9d (44,329 games); run it with
// -benchtime=1x.
func BenchmarkImportTom9dAll(b *testing.B) {
	benchImport(b, []string{sharedData(b, "games/tom9d")})
}

// BenchmarkReadGames reads all of tom9d back from a games dataset.
func BenchmarkReadGames(b *testing.B) {
	out := b.TempDir()
	m, err := ImportRecords(context.Background(), ImportOptions{Inputs: []string{sharedData(b, "games/tom9d")}, OutDir: out})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		n := 0
		if _, err := ForEachGame(context.Background(), out, func(Game) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
		if n != int(m.Rows) {
			b.Fatalf("read %d games, wrote %d", n, m.Rows)
		}
	}
	b.ReportMetric(float64(m.Rows)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
