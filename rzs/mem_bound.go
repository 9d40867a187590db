package rzs

import (
	"bufio"
	"fmt"
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
	"unsafe"

	"lifezero/game"
)

// memBound is the solver's memory bound: the solver counts the bytes of its
// own structures (cheap: arena sizes and table entries) every
// memCheckEvery nodes. Near the bound it reclaims what proofs no longer
// need (the subtrees below proven nodes, then the transposition table, then
// the zones nothing refers to any more); when that does not bring it well
// below the bound, the search stops unproven with a reason.
type memBound struct {
	max       int64
	next      int // node count of the next check
	reclaims  int
	reclaimed int64
}

// memCheckEvery is how many nodes pass between two counts. A node costs
// well under 2 KB, so 1024 nodes move the count by at most a few MB.
const memCheckEvery = 1024

// Fractions of the bound: when what it uses reaches memHigh the solver
// reclaims; if that does not bring its use under memLow it stops. It also
// stops when what it holds (with the freed items kept for reuse) reaches
// the bound.
const (
	memHigh = 0.85
	memLow  = 0.75
)

func (m *memBound) init(max int64) { m.max, m.next = max, memCheckEvery }

func (m *memBound) due(nodes int) bool {
	if m.max <= 0 || nodes < m.next {
		return false
	}
	m.next = nodes + memCheckEvery
	return true
}

// memoryBytes counts the memory the solver holds: the arenas' capacity
// (freed items are reused before an arena grows) and the table.
func (s *mcSolver) memoryBytes() int64 {
	b := s.tree.bytes() + s.zones.a.bytes() + s.and.bytes() + s.tt.bytes()
	if s.tableTime != nil {
		b += s.tableTime.bytes()
	}
	b += s.searchBytes()
	return b
}

// liveBytes counts the memory in use: what memoryBytes counts less the
// freed items waiting for reuse.
func (s *mcSolver) liveBytes() int64 {
	t := s.tree
	b := int64(t.nodes.live())*int64(unsafe.Sizeof(memNode{})) + t.data.inUse +
		int64(s.zones.a.live())*int64(unsafe.Sizeof(game.PointSet{})) +
		int64(s.and.live())*int64(unsafe.Sizeof(andState{})) + s.tt.bytes()
	if s.tableTime != nil {
		b += int64(s.tableTime.live()) * 8
	}
	b += s.searchBytes()
	return b
}

// checkMemory reclaims when the solver nears its bound and returns the
// reason to stop when it cannot get well below it ("" to go on).
func (s *mcSolver) checkMemory() string {
	// The Go runtime's own memory (heap, stacks) counts too unless the
	// caller asks for the solver's alone: the solver's arenas live outside
	// it, and a process holds both.
	var other int64
	if !s.opts.MemorySolverOnly {
		other = goRuntimeBytes()
	}
	high, low := int64(memHigh*float64(s.mem.max))-other, int64(memLow*float64(s.mem.max))-other
	if s.liveBytes() < high {
		if s.memoryBytes()+other >= s.mem.max {
			// What is freed is reused before anything grows, but the
			// blocks freed may not fit what is asked: held at the bound.
			return fmt.Sprintf("memory bound %s reached", FormatMemorySize(s.mem.max))
		}
		return ""
	}
	before := s.liveBytes()
	s.mem.reclaims++
	s.dropProvenSubtrees()
	if s.liveBytes() >= low {
		s.pruneUnpromising(1)
	}
	if s.liveBytes() >= low {
		s.tt.clear()
	}
	for v := int32(4); s.liveBytes() >= low && v <= 1<<16; v *= 4 {
		s.pruneUnpromising(v)
	}
	s.sweepZones()
	s.mem.reclaimed += before - s.liveBytes()
	if s.liveBytes() >= low || s.memoryBytes()+other >= s.mem.max {
		return fmt.Sprintf("memory bound %s reached", FormatMemorySize(s.mem.max))
	}
	return ""
}

// dropProvenSubtrees frees everything below proven nodes: a proven node is
// never searched again, and its parent needs only its status and zone. The
// solution tree then stops at such nodes.
func (s *mcSolver) dropProvenSubtrees() {
	stack := []int32{rootNode}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s.status(id) != Unknown && id != rootNode {
			s.freeBelow(id)
			continue
		}
		s.tree.visited(id, func(c int32) { stack = append(stack, c) })
	}
}

// goRuntimeBytes returns the memory the Go runtime holds from the system
// (heap, stacks, metadata; less what it has returned).
func goRuntimeBytes() int64 {
	samples := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(samples)
	if samples[0].Value.Kind() != metrics.KindUint64 || samples[1].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(samples[0].Value.Uint64() - samples[1].Value.Uint64())
}

// pruneUnpromising frees the subtrees of the unproven nodes (not the root)
// visited at most maxVisits times: most of a search's nodes are leaves
// expanded once. Such a node is expanded again, as a new node, when the
// search comes back to it; its visits and value stay, so the search
// comes back as it would have.
func (s *mcSolver) pruneUnpromising(maxVisits int32) {
	stack := []int32{rootNode}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := s.tree.node(id)
		if n.status != Unknown || n.flags&flagExpanded == 0 {
			continue
		}
		if id != rootNode && n.visits <= maxVisits {
			s.freeBelow(id)
			if n.aux != 0 {
				s.and.release(n.aux)
				n.aux = 0
			}
			n.flags &^= flagExpanded | flagKidDep // its children's proofs are forgotten
			s.forget(id)
			continue
		}
		s.tree.visited(id, func(c int32) { stack = append(stack, c) })
	}
}

// freeBelow frees the children of id and everything under them.
func (s *mcSolver) freeBelow(id int32) {
	t := s.tree
	var stack []int32
	t.visited(id, func(c int32) { stack = append(stack, c) })
	s.freeKids(id)
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		t.visited(c, func(g int32) { stack = append(stack, g) })
		s.freeKids(c)
		n := t.node(c)
		if n.aux != 0 {
			s.and.release(n.aux)
		}
		if s.tableTime != nil && int(c) < int(s.tableTime.n) {
			*s.tableTime.at(c) = 0
		}
		t.nodes.release(c)
		s.forget(c)
	}
}

// freeKids frees the children block of id and forgets its visited children.
func (s *mcSolver) freeKids(id int32) {
	t := s.tree
	n := t.node(id)
	if c, ok := t.kidsOf(id); ok {
		nPal := 0
		if c.pal != nil {
			nPal = len(c.pal) / 4
		}
		slack := int(t.data.block(n.kids, blockHeader)[7])
		t.data.release(n.kids, blockSize(c.n, nPal, len(c.words)/8), slack)
	}
	n.kids = blockRef{}
	n.firstRec = 0
	n.nextKid = 0
	n.flags &^= flagCoarse // no children left to refine
}

// sweepZones frees the zones that no live node and no table entry refers
// to.
func (s *mcSolver) sweepZones() {
	za := s.zones.a
	used := make([]uint64, (int(za.n)+63)/64)
	mark := func(z int32) {
		if z > 0 {
			used[z>>6] |= 1 << (uint(z) & 63)
		}
	}
	mark(s.allZone)
	stack := []int32{rootNode}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		mark(s.tree.node(id).zone)
		s.tree.visited(id, func(c int32) { stack = append(stack, c) })
	}
	if s.tt != nil {
		for _, e := range s.tt.entries {
			mark(e.zone)
		}
	}
	inFree := make([]uint64, len(used))
	for _, z := range za.free {
		inFree[z>>6] |= 1 << (uint(z) & 63)
	}
	for z := int32(1); z < za.n; z++ {
		bit := uint64(1) << (uint(z) & 63)
		if used[z>>6]&bit == 0 && inFree[z>>6]&bit == 0 {
			za.release(z)
		}
	}
}

// ParseMemorySize reads a size such as 500MB, 4GiB, 2G or 1048576 (bytes):
// KB, MB, GB and TB are powers of 1000; KiB, MiB, GiB, TiB and the bare
// letters K, M, G and T powers of 1024.
func ParseMemorySize(v string) (int64, error) {
	s := strings.TrimSpace(v)
	units := []struct {
		suffix string
		mult   float64
	}{
		{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
		{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40}, {"B", 1},
	}
	mult := 1.0
	for _, u := range units {
		if len(s) > len(u.suffix) && strings.EqualFold(s[len(s)-len(u.suffix):], u.suffix) {
			mult, s = u.mult, strings.TrimSpace(s[:len(s)-len(u.suffix)])
			break
		}
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || x <= 0 || x*mult < 1<<20 {
		return 0, fmt.Errorf("%q: want a size of at least 1MiB such as 500MB or 4GiB", v)
	}
	return int64(x * mult), nil
}

// FormatMemorySize writes a size for people: 500MB, 4GiB, 1.5GiB.
func FormatMemorySize(b int64) string {
	switch {
	case b%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", b>>30)
	case b%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", b>>20)
	case b%1e9 == 0:
		return fmt.Sprintf("%dGB", b/1e9)
	case b%1e6 == 0:
		return fmt.Sprintf("%dMB", b/1e6)
	case b >= 1<<30:
		return fmt.Sprintf("%.1fGiB", float64(b)/(1<<30))
	}
	return fmt.Sprintf("%.0fMiB", float64(b)/(1<<20))
}

// MemTotal returns the machine's physical memory from /proc/meminfo (0 if
// unknown).
func MemTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// DefaultMemoryFraction is the share of physical memory the solves of a
// run may hold together by default.
const DefaultMemoryFraction = 0.6

// DefaultMaxMemory is the default bound of one solve when workers solves
// run at once: DefaultMemoryFraction of physical memory shared among them
// (0, no bound, when the memory is unknown).
func DefaultMaxMemory(workers int) int64 {
	total := MemTotal()
	if total <= 0 {
		return 0
	}
	return int64(DefaultMemoryFraction*float64(total)) / int64(max(workers, 1))
}
