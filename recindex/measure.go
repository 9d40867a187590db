package recindex

import (
	"context"
	"math/rand/v2"
	"slices"
	"time"

	"lifezero/internal/cputime"
)

// SamplePattern draws a square pattern from a random position of the
// indexed games: a random game, a random move of it, a random side in
// minSide..maxSide, a random place holding at least one stone, and up to
// half of the points (a random number of them) made don't-care, keeping
// at least one stone.
func (x *Index) SamplePattern(r *rand.Rand, minSide, maxSide int) *Pattern {
	for {
		g := r.IntN(x.Games())
		size, moves := x.BoardSize(g), x.NumMoves(g)
		k := minSide + r.IntN(maxSide-minSide+1)
		if moves == 0 || k > size {
			continue
		}
		board := x.board(g, 1+r.IntN(moves))
		for try := 0; try < 20; try++ {
			if p := samplePlace(r, board, size, k); p != nil {
				return p
			}
		}
	}
}

func samplePlace(r *rand.Rand, board []uint8, size, k int) *Pattern {
	x0, y0 := r.IntN(size-k+1), r.IntN(size-k+1)
	p := &Pattern{W: k, H: k, Points: make([]Mask, k*k)}
	for y := 0; y < k; y++ {
		for x := 0; x < k; x++ {
			p.Points[y*k+x] = 1 << board[(y0+y)*size+x0+x]
		}
	}
	for _, i := range r.Perm(k * k)[:r.IntN(k*k/2+1)] {
		p.Points[i] = MaskAny
	}
	if p.Validate() != nil {
		return nil
	}
	return p
}

// Measurement summarises the latency of searches.
type Measurement struct {
	Patterns int           `json:"patterns"`
	Median   time.Duration `json:"median_ns"`
	P95      time.Duration `json:"p95_ns"`
	Max      time.Duration `json:"max_ns"`
	Mean     time.Duration `json:"mean_ns"`
	// HitsMedian and HitsMax describe the answers' sizes.
	HitsMedian int `json:"hits_median"`
	HitsMax    int `json:"hits_max"`
	// VerifiedMedian and ScannedMedian are the medians of Result.Verified
	// (candidates checked point by point) and Result.Scanned (keys tested).
	VerifiedMedian int `json:"verified_median"`
	ScannedMedian  int `json:"scanned_median"`
	// BySide is the median latency per pattern side.
	BySide map[int]time.Duration `json:"by_side_median_ns"`
	// CPU times of the searches (user and system, every goroutine of the
	// process, taken around each search): median, p95, max, total, and
	// the median per pattern side.
	CPUMedian time.Duration         `json:"cpu_median_ns"`
	CPUP95    time.Duration         `json:"cpu_p95_ns"`
	CPUMax    time.Duration         `json:"cpu_max_ns"`
	CPUTotal  time.Duration         `json:"cpu_total_ns"`
	CPUBySide map[int]time.Duration `json:"cpu_by_side_median_ns"`
}

// Measure times a search of every pattern, one after another.
func (x *Index) Measure(ctx context.Context, patterns []*Pattern, opts Options) (*Measurement, error) {
	times := make([]time.Duration, len(patterns))
	hits := make([]int, len(patterns))
	verified, scanned := make([]int, len(patterns)), make([]int, len(patterns))
	cpu := make([]time.Duration, len(patterns))
	bySide, cpuBySide := map[int][]time.Duration{}, map[int][]time.Duration{}
	for i, p := range patterns {
		start, cpu0 := time.Now(), cputime.Process()
		res, err := x.Search(ctx, p, opts)
		if err != nil {
			return nil, err
		}
		times[i], cpu[i], hits[i] = time.Since(start), cputime.Process()-cpu0, res.NumHits
		verified[i], scanned[i] = res.Verified, res.Scanned
		bySide[p.W] = append(bySide[p.W], times[i])
		cpuBySide[p.W] = append(cpuBySide[p.W], cpu[i])
	}
	m := &Measurement{Patterns: len(patterns), BySide: map[int]time.Duration{}, CPUBySide: map[int]time.Duration{}}
	if len(patterns) == 0 {
		return m, nil
	}
	var sum time.Duration
	for _, t := range times {
		sum += t
	}
	m.Mean = sum / time.Duration(len(times))
	slices.Sort(times)
	slices.Sort(hits)
	m.Median, m.P95, m.Max = quantile(times, 0.5), quantile(times, 0.95), times[len(times)-1]
	m.HitsMedian, m.HitsMax = quantile(hits, 0.5), hits[len(hits)-1]
	slices.Sort(verified)
	slices.Sort(scanned)
	m.VerifiedMedian, m.ScannedMedian = quantile(verified, 0.5), quantile(scanned, 0.5)
	for side, ts := range bySide {
		slices.Sort(ts)
		m.BySide[side] = quantile(ts, 0.5)
	}
	for _, t := range cpu {
		m.CPUTotal += t
	}
	slices.Sort(cpu)
	m.CPUMedian, m.CPUP95, m.CPUMax = quantile(cpu, 0.5), quantile(cpu, 0.95), cpu[len(cpu)-1]
	for side, ts := range cpuBySide {
		slices.Sort(ts)
		m.CPUBySide[side] = quantile(ts, 0.5)
	}
	return m, nil
}

// quantile returns the q-quantile of sorted values (nearest rank).
func quantile[T any](sorted []T, q float64) T {
	i := int(q*float64(len(sorted))+0.5) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}
