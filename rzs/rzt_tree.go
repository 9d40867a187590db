package rzs

import (
	"slices"
	"sort"

	"lifezero/game"
)

// TreeTable is the paper's TR table: a radix tree over the ordered crucial
// intersections (OCI) I_1..I_n, one tree per side to move. Level d branches
// on what a pattern holds at I_d: a black stone, a white stone, an empty
// point of its zone, or N when I_d is not in its zone. Entries sit in lists
// at the leaves, oldest first. A lookup follows, at each level, the branch
// of the position's content at I_d and then the N branch (backtracking),
// compares the leaf lists newest first and returns the first match.
//
// The OCI are the hottest points of the stored zones: sorted by how many
// zones hold them, the shortest prefix covering 80% of all zone points, at
// most 20 levels. The tree is rebuilt with fresh OCI every 100 entries up
// to 1,000 and then each time the table has grown by 10%, reinserting the
// entries in their order (a rebuild is skipped when the OCI are unchanged).
// Below 100 entries each tree is a single list (no OCI yet).
//
// Every tree node carries the stamp of the newest entry below it; with
// timestamps, a lookup skips a subtree (and stops a list scan) whose stamp
// is at most the caller's since: it has compared all of that already.
type TreeTable struct {
	patternStore
}

// NewTreeTable returns an empty tree table for a problem.
func NewTreeTable(pr *game.Problem, opts TableOptions) *TreeTable {
	t := &TreeTable{newStore(pr, "TR", opts)}
	ti := &treeIndex{s: &t.patternStore, counts: make([]int64, pr.Start.Cells())}
	ti.reset()
	t.idx = ti
	return t
}

// OCI selection of Section III-C-1.
const (
	ociCoverage  = 0.8
	maxOCILevels = 20
)

// notInZone is the N branch; the others are indexed by game.Empty,
// game.Black and game.White.
const notInZone = 3

type treeNode struct {
	child [4]int32 // 0: no child (node 0 is a sentinel)
	stamp uint64   // newest entry below
	list  int32    // a leaf's index in lists, -1 for an inner node
}

type treeIndex struct {
	s      *patternStore
	oci    []game.Point
	nodes  []treeNode
	roots  [4]int32 // by side to move
	lists  [][]int32
	counts []int64 // zone occurrences of each point
	total  int64
}

func (t *treeIndex) size() int      { return len(t.nodes) - 1 }
func (t *treeIndex) listFree() bool { return true }

// reset empties the tree (the entries stay in the store).
func (t *treeIndex) reset() {
	t.nodes = append(t.nodes[:0], treeNode{list: -1})
	t.lists = t.lists[:0]
	t.roots = [4]int32{}
	t.roots[game.Black] = t.newNode(0)
	t.roots[game.White] = t.newNode(0)
}

func (t *treeIndex) newNode(depth int) int32 {
	n := treeNode{list: -1}
	if depth == len(t.oci) {
		n.list = int32(len(t.lists))
		t.lists = append(t.lists, nil)
	}
	t.nodes = append(t.nodes, n)
	return int32(len(t.nodes) - 1)
}

func (t *treeIndex) add(i int32) {
	e := &t.s.entries[i]
	e.zone.ForEach(func(p game.Point) { t.counts[p]++ })
	t.total += int64(e.zone.Len())
	t.place(i)
}

// place inserts entry i along the path of its pattern string.
func (t *treeIndex) place(i int32) {
	e := &t.s.entries[i]
	n := t.roots[e.toMove]
	t.nodes[n].stamp = max(t.nodes[n].stamp, e.stamp)
	for d, p := range t.oci {
		b := notInZone
		if e.zone.Has(p) {
			b = int(e.contentAt(p))
		}
		c := t.nodes[n].child[b]
		if c == 0 {
			c = t.newNode(d + 1)
			t.nodes[n].child[b] = c
		}
		n = c
		t.nodes[n].stamp = max(t.nodes[n].stamp, e.stamp)
	}
	l := t.nodes[n].list
	t.lists[l] = append(t.lists[l], i)
}

func (t *treeIndex) find(q *query, since uint64) int32 {
	if q.toMove != game.Black && q.toMove != game.White {
		return -1
	}
	return t.search(t.roots[q.toMove], 0, q, since)
}

// search looks below node n at depth depth: the branch of the position's
// content first, then N.
func (t *treeIndex) search(n int32, depth int, q *query, since uint64) int32 {
	s := t.s
	s.c.NodeVisits++
	node := &t.nodes[n]
	if node.stamp <= since {
		return -1
	}
	if depth == len(t.oci) {
		list := t.lists[node.list]
		for k := len(list) - 1; k >= 0; k-- {
			e := &s.entries[list[k]]
			if e.stamp <= since {
				break
			}
			s.c.Compares++
			if e.matches(q, s.words) {
				return list[k]
			}
		}
		return -1
	}
	if c := node.child[q.colorAt(t.oci[depth])]; c != 0 {
		if f := t.search(c, depth+1, q, since); f >= 0 {
			return f
		}
	}
	if c := node.child[notInZone]; c != 0 {
		return t.search(c, depth+1, q, since)
	}
	return -1
}

// rebuild chooses the OCI afresh and, if they changed, rebuilds the tree
// with the entries in insertion order.
func (t *treeIndex) rebuild() bool {
	oci := t.chooseOCI()
	if slices.Equal(oci, t.oci) {
		return false
	}
	t.oci = oci
	t.reset()
	for i := range t.s.entries {
		t.place(int32(i))
	}
	return true
}

// chooseOCI returns the hottest points covering ociCoverage of all zone
// occurrences, at most maxOCILevels of them (ties broken by point order,
// so the choice is deterministic).
func (t *treeIndex) chooseOCI() []game.Point {
	var pts []game.Point
	for p, n := range t.counts {
		if n > 0 {
			pts = append(pts, game.Point(p))
		}
	}
	sort.SliceStable(pts, func(a, b int) bool { return t.counts[pts[a]] > t.counts[pts[b]] })
	target := ociCoverage * float64(t.total)
	var oci []game.Point
	var covered int64
	for _, p := range pts {
		if len(oci) == maxOCILevels || float64(covered) >= target {
			break
		}
		oci = append(oci, p)
		covered += t.counts[p]
	}
	return oci
}
