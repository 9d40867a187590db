package rzs

import (
	"context"
	"math"
	"time"

	"lifezero/game"
)

// SolveDFPN runs RZS as depth-first proof-number search (df-pn, Nagai
// 2002) with the relevance-zone rules: the form paper 001 names as future
// work ("df-pn(r)"). The proofs are the same as in the other two forms
// (Judge at the leaves, DilateOR at the living side's nodes, the must-play
// region and DilateAND at the killer's), so only the order of the search
// differs: df-pn always works on the most-proving node, the one whose
// proof or disproof costs the fewest further leaves, which MCTS does not
// see.
//
// At the killer's nodes the proof number counts the unrefuted moves of the
// must-play region only, so a refuted null move, whose zone prunes every
// move outside it, cuts the node's proof number at once.
//
// Killer moves are far from independent (one null-move proof refutes all
// the moves outside its zone), and so are the living side's: summing their
// numbers, as plain df-pn does, makes every node with a hundred moves look
// a hundred leaves away and the search goes breadth-first. The numbers
// that would be sums are therefore weak proof numbers (Ueda et al. 2008):
// the largest child's number plus a 64th of a leaf for each other open
// child (weakExtra). The evaluator's priors order the search for good:
// a child with prior p is compared at its parent as its number plus
// pnUnit*(-ln p), before and after it is expanded. All of this is only
// ordering: no number is ever taken as proof.
//
// Budget counts node visits (every entry into a node, re-expansions after
// the threshold returns included), so it is no easier than the MCTS form's
// count of simulations.
func SolveDFPN(ctx context.Context, pr *game.Problem, opts Options) Result {
	opts.defaults(pr)
	s := &pnSolver{pr: pr, opts: opts, living: pr.Living(), all: pr.Start.AllPoints(), ctx: ctx,
		tt: make(map[uint64]pnEntry), zones: newZoneArena(), rootMove: game.NoPoint, rules: newProofRules(pr, opts.NoRZ)}
	if opts.Timeout > 0 {
		s.deadline = time.Now().Add(opts.Timeout)
	}
	start := time.Now()
	root := pr.StartPosition()
	key := ttKey(root, &pr.Crucial)
	var e pnEntry
	for !s.stop {
		e = s.mid(root, pr.Crucial, key, key, pnInf, pnInf, 0)
		if e.status != Unknown {
			break
		}
	}
	res := Result{Status: e.status, Nodes: s.nodes, Seconds: time.Since(start).Seconds(), FirstMove: game.NoPoint,
		Aborted: s.aborted, Reason: s.reason, MemoryBytes: s.bytes()}
	if e.status == Win {
		res.Zone = s.zones.get(e.zone)
	}
	if e.status != Unknown {
		if (e.status == Win) == (root.ToMove() == s.living) {
			res.FirstMove = s.rootMove
		} else {
			res.FirstMove = game.Pass
		}
	}
	return res
}

// pnUnit is one leaf in the proof and disproof numbers: the priors give
// fractions of it.
const pnUnit = 16

// pnInf is an infinite proof or disproof number: only a proof makes one
// (a won node's disproof number, a lost node's proof number). Sums of
// unproven numbers saturate just below it, and a line cut by MaxDepth gets
// pnCut for both, so that an infinite threshold stops a search only when
// it proves something.
const (
	pnInf = math.MaxUint32 / 4
	pnCut = pnInf / 2
)

// pnEntry is what the table keeps of a node: its numbers while unproven,
// its status and zone once proven. dep marks a proof that rests on the
// path's superko history: such entries are kept under the path's key only.
type pnEntry struct {
	pn, dn uint32
	zone   int32
	status Status
	dep    bool
}

type pnSolver struct {
	pr       *game.Problem
	opts     Options
	living   game.Color
	all      game.PointSet
	rules    proofRules
	tt       map[uint64]pnEntry
	zones    *zoneArena
	nodes    int
	ctx      context.Context
	deadline time.Time
	stop     bool
	aborted  bool
	reason   string
	rootMove game.Point
	view     game.Problem // the evaluator's problem view (see newPNNode)
}

// pnKid is a move of a node on the current path with what is known of its
// child.
type pnKid struct {
	move    game.Point
	key     uint64 // ttKey of the child
	pn, dn  uint32
	status  Status
	dep     bool
	zone    int32
	bias    uint32 // added to the number its parent picks by: pn at OR nodes, dn at AND nodes
	applied bool   // its proof has been applied to the node (nodeProof)
}

func (s *pnSolver) bytes() int64 { return int64(len(s.tt))*48 + s.zones.a.bytes() }

// budgetLeft counts a visit and reports whether the search may go on.
func (s *pnSolver) budgetLeft() bool {
	if s.stop {
		return false
	}
	if s.nodes >= s.opts.Budget {
		s.stop = true
		return false
	}
	s.nodes++
	if s.nodes%1024 == 0 {
		if s.ctx.Err() != nil || (!s.deadline.IsZero() && time.Now().After(s.deadline)) {
			s.stop, s.aborted = true, true
			return false
		}
		if s.opts.MaxMemory > 0 && s.bytes() > int64(memHigh*float64(s.opts.MaxMemory)) {
			s.forgetUnproven()
		}
	}
	return true
}

// forgetUnproven drops the numbers of unproven nodes, which are only
// ordering, to keep the table under the memory bound; proofs stay.
func (s *pnSolver) forgetUnproven() {
	for k, e := range s.tt {
		if e.status == Unknown {
			delete(s.tt, k)
		}
	}
}

// lookup returns what the table knows of a node: a proof stored under its
// position key, a history-dependent proof stored under its path key, or
// its numbers.
func (s *pnSolver) lookup(key, path uint64) (pnEntry, bool) {
	e, ok := s.tt[key]
	if ok && e.status != Unknown {
		return e, true
	}
	if p, okp := s.tt[path]; okp && p.status != Unknown {
		return p, true
	}
	return e, ok
}

func (s *pnSolver) store(key, path uint64, e pnEntry) {
	if e.status != Unknown && e.dep {
		s.tt[path] = e
		return
	}
	s.tt[key] = e
}

// pathKey is the key of a child's path: the proofs that rest on the superko
// history hold for this exact sequence of positions only.
func pathKey(parent, child uint64) uint64 {
	h := (parent ^ 0x94d049bb133111eb) * 0xbf58476d1ce4e5b9
	return (h<<29 | h>>35) ^ child
}

func proven(st Status, zone int32, dep bool) pnEntry {
	if st == Win {
		return pnEntry{pn: 0, dn: pnInf, status: Win, zone: zone, dep: dep}
	}
	return pnEntry{pn: pnInf, dn: 0, status: Loss, dep: dep}
}

// mid searches a node until its proof number reaches thpn or its disproof
// number thdn, or it is proven, and returns its entry.
func (s *pnSolver) mid(pos *game.Position, standing game.PointSet, key, path uint64, thpn, thdn uint32, depth int) pnEntry {
	if e, ok := s.lookup(key, path); ok && (e.status != Unknown || e.pn >= thpn || e.dn >= thdn) {
		return e
	}
	if !s.budgetLeft() {
		e, _ := s.lookup(key, path)
		if e.pn == 0 && e.dn == 0 {
			e.pn, e.dn = pnUnit, pnUnit
		}
		return e
	}
	j := judge(s.pr, pos, &standing, s.opts.Safety)
	switch j.Outcome {
	case game.LivingWins:
		z := s.all
		if !s.opts.NoRZ {
			z = j.Zone
		}
		e := proven(Win, s.zones.add(z), false)
		s.tt[key] = e
		return e
	case game.LivingFails:
		e := proven(Loss, 0, false)
		s.tt[key] = e
		return e
	}
	if depth >= s.opts.MaxDepth {
		return pnEntry{pn: pnCut, dn: pnCut} // cut: neither provable nor storable
	}
	n := s.newPNNode(pos, standing, path, depth)
	return n.search(key, path, thpn, thdn)
}

// pnNode is a node being searched by mid.
type pnNode struct {
	s        *pnSolver
	pos      *game.Position
	standing game.PointSet
	path     uint64
	depth    int
	or       bool
	barred   bool
	kids     []pnKid
	and      andState  // AND nodes: the must-play region and the refuted moves' zones
	proof    nodeProof // the proof rule's state (its and is &and)
}

func (s *pnSolver) newPNNode(pos *game.Position, standing game.PointSet, path uint64, depth int) *pnNode {
	n := &pnNode{s: s, pos: pos, standing: standing, path: path, depth: depth, or: pos.ToMove() == s.living}
	moves, barred := pos.LegalMovesSuperko(nil, &s.pr.Region)
	n.barred = barred > 0
	if !n.or {
		moves = append(moves, game.Pass) // the killer may always pass (see createChildren)
	}
	if len(moves) == 0 {
		return n
	}
	s.pr.StandingView(&s.view, &standing)
	priors, _ := s.opts.Evaluator.Evaluate(pos, &s.view, moves)
	n.kids = make([]pnKid, len(moves))
	for i, m := range moves {
		child := *pos
		if err := child.Play(m); err != nil {
			panic("rzs: legal move rejected: " + err.Error()) // moves come from LegalMovesSuperko
		}
		st := s.pr.Standing(&child, &standing)
		k := &n.kids[i]
		k.move, k.key = m, ttKey(&child, &st)
		k.pn, k.dn, k.bias = pnUnit, pnUnit, priorBias(priors[i])
		if m == game.Pass {
			// The killer's pass is its null move, searched first as in
			// lambda search: its refutation's zone is the must-play region
			// that prunes every killer move outside it.
			k.bias = 0
		}
		if e, ok := s.lookup(k.key, pathKey(path, k.key)); ok {
			k.pn, k.dn, k.status, k.zone, k.dep = e.pn, e.dn, e.status, e.zone, e.dep
		}
	}
	var points game.PointSet
	for _, m := range moves {
		if m != game.Pass {
			points.Add(m)
		}
	}
	n.and = newAndState(points)
	n.proof = nodeProof{or: n.or, pos: pos, open: len(n.kids), and: &n.and}
	return n
}

// priorBias is what a child with prior p adds to its number when its
// parent picks the child to search (see SolveDFPN).
func priorBias(p float32) uint32 {
	return uint32(pnUnit * -math.Log(float64(max(p, 1e-6))))
}

// search is mid's loop at an expanded node.
func (n *pnNode) search(key, path uint64, thpn, thdn uint32) pnEntry {
	s := n.s
	for {
		e, best, second, open := n.numbers()
		if e.status != Unknown {
			e.dep = e.dep || n.barred
			if n.depth == 0 {
				s.rootMove = n.decidingMove(e.status)
			}
			s.store(key, path, e)
			return e
		}
		if e.pn >= thpn || e.dn >= thdn || s.stop {
			s.tt[key] = e
			return e
		}
		k := &n.kids[best]
		// The node's picked number is the best child's plus its bias; its
		// other number is the largest child's plus one unit per other open
		// child (see numbers): the thresholds follow.
		var cpn, cdn uint32
		if n.or {
			cpn = sub(min(thpn, grow(second)), k.bias)
			cdn = sub(thdn, weakExtra(open))
		} else {
			cdn = sub(min(thdn, grow(second)), k.bias)
			cpn = sub(thpn, weakExtra(open))
		}
		child := *n.pos
		if err := child.Play(k.move); err != nil {
			panic("rzs: legal move rejected: " + err.Error())
		}
		r := s.mid(&child, s.pr.Standing(&child, &n.standing), k.key, pathKey(path, k.key), cpn, cdn, n.depth+1)
		k.pn, k.dn, k.status, k.zone, k.dep = r.pn, r.dn, r.status, r.zone, r.dep
	}
}

// grow is the 1+ε threshold of Pawlewicz and Lew: a child is searched
// until its number passes the second best's by a quarter, which saves the
// thrashing between two close siblings.
func grow(x uint32) uint32 {
	if x >= pnInf {
		return pnInf
	}
	return min(pnInf, x+1+x/4)
}

func sub(a, b uint32) uint32 {
	if a >= pnInf {
		return pnInf
	}
	if b >= a {
		return 0
	}
	return a - b
}

// add sums two unproven numbers; the sum stays finite.
func add(a, b uint32) uint32 { return min(pnInf-1, a+b) }

// numbers computes the node's entry from its kids, the kid to search next
// with the second best picked number (for its threshold), and the number
// of open kids.
func (n *pnNode) numbers() (e pnEntry, best int, second, open uint32) {
	if n.or {
		return n.orNumbers()
	}
	return n.andNumbers()
}

// weak accumulates the weak sum of the other numbers of open children: the
// largest one plus a unit for each other child.
type weak struct{ most, count uint32 }

func (w *weak) add(x uint32) { w.most, w.count = max(w.most, x), w.count+1 }

func (w *weak) sum() uint32 { return min(pnInf-1, w.most+weakExtra(w.count)) }

// weakExtra is what count open children add to the largest one's number:
// a quarter unit each beyond the first, so that a node's numbers barely
// grow when it is expanded and the priors' biases decide the order.
func weakExtra(count uint32) uint32 { return (count - 1) / 4 }

// picker finds the open child with the smallest biased number and the
// second smallest.
type picker struct {
	best          int
	first, second uint32
}

func newPicker() picker { return picker{best: -1, first: pnInf, second: pnInf} }

func (p *picker) add(i int, x uint32) {
	x = min(pnInf-1, x)
	switch {
	case x < p.first:
		p.second, p.first, p.best = p.first, x, i
	case x < p.second:
		p.second = x
	}
}

func (n *pnNode) orNumbers() (pnEntry, int, uint32, uint32) {
	if len(n.kids) == 0 {
		return proven(Loss, 0, false), -1, 0, 0 // the living side has no move left
	}
	pick, other := newPicker(), weak{}
	for i := range n.kids {
		k := &n.kids[i]
		if k.status != Unknown {
			if e, ok := n.apply(k); ok {
				return e, -1, 0, 0
			}
			continue
		}
		other.add(k.dn)
		pick.add(i, k.pn+k.bias)
	}
	return pnEntry{pn: pick.first, dn: other.sum()}, pick.best, pick.second, other.count
}

func (n *pnNode) andNumbers() (pnEntry, int, uint32, uint32) {
	// A refuting move decides the node whatever the must-play region says;
	// the refuted ones are applied after, in the kids' order.
	for _, status := range [...]Status{Loss, Win} {
		for i := range n.kids {
			if k := &n.kids[i]; k.status == status {
				if e, ok := n.apply(k); ok {
					return e, -1, 0, 0
				}
			}
		}
	}
	pick, other := newPicker(), weak{}
	for i := range n.kids {
		k := &n.kids[i]
		if k.status == Win || !n.and.has(k.move) {
			continue
		}
		other.add(k.pn)
		pick.add(i, k.dn+k.bias)
	}
	// Every unrefuted move of the must-play region is a kid that is not
	// won (a won kid in it was applied above), so other.count > 0 here.
	return pnEntry{pn: other.sum(), dn: pick.first}, pick.best, pick.second, other.count
}

// apply applies a proven kid through the proof rule, once, and returns the
// node's entry when that proves it.
func (n *pnNode) apply(k *pnKid) (pnEntry, bool) {
	if k.applied {
		return pnEntry{}, false
	}
	k.applied = true
	c := provenChild{move: k.move, status: k.status, dep: k.dep}
	var cz game.PointSet
	if k.status == Win {
		cz = n.s.zones.get(k.zone)
		c.zone = &cz
		if !n.s.rules.noRZ {
			c.next = n.play(k.move) // read by the zone rules only
		}
	}
	st, z, dep := n.proof.apply(&n.s.rules, c)
	switch st {
	case Win:
		return proven(Win, n.s.zones.add(z), dep), true
	case Loss:
		return proven(Loss, 0, dep), true
	}
	return pnEntry{}, false
}

func (n *pnNode) play(m game.Point) *game.Position {
	child := *n.pos
	if err := child.Play(m); err != nil {
		panic("rzs: legal move rejected: " + err.Error())
	}
	return &child
}

// decidingMove is the root's winning or refuting move.
func (n *pnNode) decidingMove(st Status) game.Point {
	for _, k := range n.kids {
		if k.status == st {
			return k.move
		}
	}
	return game.NoPoint
}
