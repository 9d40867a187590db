package rzs

import (
	"math"
	"time"
)

// counters are a table's running totals (Tables III and IV of paper 000).
type counters struct {
	Lookups      int64
	LookupNanos  int64
	Hits         int64
	SymHits      int64
	Compares     int64 // entries compared with a position
	NodeVisits   int64 // index nodes entered (the list head for LR)
	Rejected     int64 // positions of another board size
	Rebuilds     int64 // rebuilds that changed the tree
	RebuildNanos int64
}

// phaseCounters cover the lookups since the last schedule point.
type phaseCounters struct {
	lookups, hits               int64
	hitVisits, missVisits       int64
	hitCompares, missCompares   int64
	sizeSum                     int64 // index size summed over lookups
	hitTraversal, missTraversal int64 // cost without the leaf lists
}

// count records one lookup.
func (s *patternStore) count(hit, sym bool, visits, compares int64, took time.Duration) {
	s.c.Lookups++
	s.c.LookupNanos += took.Nanoseconds()
	traversal := compares
	if s.idx.listFree() {
		traversal = visits
	}
	p := &s.phase
	p.lookups++
	p.sizeSum += int64(s.idx.size())
	if hit {
		s.c.Hits++
		if sym {
			s.c.SymHits++
		}
		p.hits++
		p.hitVisits += visits
		p.hitCompares += compares
		p.hitTraversal += traversal
	} else {
		p.missVisits += visits
		p.missCompares += compares
		p.missTraversal += traversal
	}
}

// GrowthSample describes one rebuild phase of a table: the lookups between
// two schedule points (Figs. 5-7 of paper 000). Averages are over the
// phase's hits or misses; the traversal cost leaves out the leaf lists for
// the tree (node visits only, as the paper's c) and is the comparisons for
// the list, whose size is its number of entries.
type GrowthSample struct {
	Entries       int     `json:"entries"` // table size at the end of the phase
	IndexSize     int     `json:"index_size"`
	Lookups       int64   `json:"lookups"` // cumulative
	Cost          int64   `json:"cost"`    // cumulative node visits + compares
	PhaseLookups  int64   `json:"phase_lookups"`
	PhaseHits     int64   `json:"phase_hits"`
	AvgSize       float64 `json:"avg_size"` // n_av: index size averaged over the phase's lookups
	AvgHitCost    float64 `json:"avg_hit_cost"`
	AvgMissCost   float64 `json:"avg_miss_cost"`
	AvgHitTravel  float64 `json:"avg_hit_traversal"` // c_av on hits
	AvgMissTravel float64 `json:"avg_miss_traversal"`
}

// HitExponent is log c_av / log n_av for the phase's hits (NaN when
// undefined): the lookup cost grows as n to this power.
func (g GrowthSample) HitExponent() float64 { return costExponent(g.AvgHitTravel, g.AvgSize) }

// MissExponent is log c_av / log n_av for the phase's misses.
func (g GrowthSample) MissExponent() float64 { return costExponent(g.AvgMissTravel, g.AvgSize) }

func costExponent(c, n float64) float64 {
	if c <= 0 || n <= 1 {
		return math.NaN()
	}
	return math.Log(c) / math.Log(n)
}

func (s *patternStore) sample() GrowthSample {
	p := &s.phase
	misses := p.lookups - p.hits
	return GrowthSample{
		Entries: len(s.entries), IndexSize: s.idx.size(),
		Lookups: s.c.Lookups, Cost: s.c.NodeVisits + s.c.Compares,
		PhaseLookups: p.lookups, PhaseHits: p.hits,
		AvgSize:       ratio(p.sizeSum, p.lookups),
		AvgHitCost:    ratio(p.hitVisits+p.hitCompares, p.hits),
		AvgMissCost:   ratio(p.missVisits+p.missCompares, misses),
		AvgHitTravel:  ratio(p.hitTraversal, p.hits),
		AvgMissTravel: ratio(p.missTraversal, misses),
	}
}

func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// TableStats are a table's statistics: the columns of Tables III and IV
// of paper 000 (#Entry, #Lookup, LookupTime, #Hit, #Compare, #Cost) and
// the growth samples of Figs. 5-7.
type TableStats struct {
	Kind        string `json:"kind"` // LR-NT, LR-TS, TR-NT, TR-TS, "+SYM" with symmetric lookups
	Problem     string `json:"problem"`
	Entries     int    `json:"entries"`
	Preloaded   int    `json:"preloaded"` // entries loaded from a pattern database
	Lookups     int64  `json:"lookups"`
	LookupNanos int64  `json:"lookup_ns"`
	Hits        int64  `json:"hits"`
	SymHits     int64  `json:"sym_hits"` // hits found only under a symmetry
	Symmetries  int    `json:"symmetries"`
	Compares    int64  `json:"compares"`
	NodeVisits  int64  `json:"node_visits"`
	// Cost is the traversal cost: node visits plus entries compared.
	Cost         int64          `json:"cost"`
	Rejected     int64          `json:"rejected"`
	IndexSize    int            `json:"index_size"` // tree nodes (entries for LR)
	OCI          []string       `json:"oci,omitempty"`
	Rebuilds     int64          `json:"rebuilds"`
	RebuildNanos int64          `json:"rebuild_ns"`
	Growth       []GrowthSample `json:"growth"`
}

// Stats returns the table's statistics so far, with a growth sample of the
// current (unfinished) phase at the end when it had lookups.
func (s *patternStore) Stats() TableStats {
	st := TableStats{
		Kind: s.kind, Problem: s.problem.id, Entries: len(s.entries), Preloaded: s.preloaded,
		Lookups: s.c.Lookups, LookupNanos: s.c.LookupNanos, Hits: s.c.Hits, SymHits: s.c.SymHits,
		Symmetries: 1 + len(s.sym.others), Compares: s.c.Compares, NodeVisits: s.c.NodeVisits,
		Cost: s.c.NodeVisits + s.c.Compares, Rejected: s.c.Rejected, IndexSize: s.idx.size(),
		Rebuilds: s.c.Rebuilds, RebuildNanos: s.c.RebuildNanos,
		Growth: append([]GrowthSample(nil), s.growth...),
	}
	if t, ok := s.idx.(*treeIndex); ok {
		for _, p := range t.oci {
			st.OCI = append(st.OCI, s.problem.pointName(p))
		}
	}
	if s.phase.lookups > 0 {
		st.Growth = append(st.Growth, s.sample())
	}
	return st
}
