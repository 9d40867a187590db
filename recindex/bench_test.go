package recindex

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"
)

// BenchmarkSearch times searches of random 3x3..7x7 patterns taken from
// the records (up to half don't-care), each at most 20 hits listed. It
// searches the index named by $LIFEZERO_RECORD_INDEX (for example the
// whole tom9d collection) or else the tests' 120-game index. For the
// median, p95 and max over many patterns use lifezero records bench.
func BenchmarkSearch(b *testing.B) {
	var x *Index
	if dir := os.Getenv("LIFEZERO_RECORD_INDEX"); dir != "" {
		var err error
		if x, err = Open(dir); err != nil {
			b.Fatal(err)
		}
		defer x.Close()
	} else {
		x = openTestIndex(b)
	}
	r := rand.New(rand.NewPCG(1, 0))
	patterns := make([]*Pattern, 256)
	for i := range patterns {
		patterns[i] = x.SamplePattern(r, 3, 7)
	}
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := x.Search(ctx, patterns[i%len(patterns)], Options{Limit: 20}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMeasure: the measurement covers every pattern and orders its
// quantiles.
func TestMeasure(t *testing.T) {
	x := openTestIndex(t)
	r := rand.New(rand.NewPCG(3, 0))
	var patterns []*Pattern
	for i := 0; i < 30; i++ {
		patterns = append(patterns, x.SamplePattern(r, 3, 7))
	}
	m, err := x.Measure(context.Background(), patterns, Options{Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	if m.Patterns != 30 || m.Median > m.P95 || m.P95 > m.Max || m.HitsMax < 1 {
		t.Errorf("measurement %+v", m)
	}
	for _, p := range patterns {
		if p.W < 3 || p.W > 7 || p.W != p.H || p.Validate() != nil {
			t.Errorf("sampled pattern %dx%d:\n%s", p.W, p.H, p)
		}
	}
}
