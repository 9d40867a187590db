package rzs

import (
	"context"
	"errors"
	"time"

	"lifezero/game"
	"lifezero/mcts"
)

// Options configure a solve.
type Options struct {
	// Budget is the most nodes (MCTS simulations, or depth-first visits)
	// to spend; 0 means 500,000 as in the paper.
	Budget int
	// NoRZ turns relevance zones off: every defender move must be refuted.
	NoRZ bool
	// NoTT turns the transposition table off.
	NoTT bool
	// Evaluator orders the search; nil means Heuristic.
	Evaluator Evaluator
	// MaxDepth bounds a line of play; a deeper line stays unproven. 0 means
	// four times the region size plus 20.
	MaxDepth int
	// Timeout stops the search after this long (0 = none).
	Timeout time.Duration
	// Table, when set, is the RZ pattern table: looked up at every
	// unproven node reached and fed every proven win.
	Table PatternTable
	// MaxMemory bounds the memory the search holds, in bytes (0: none).
	// Near it the solver first reclaims what proofs no longer need; when
	// nothing is left to reclaim it stops with Unknown and Reason set. The
	// memory the Go runtime holds besides (heap, stacks) counts towards it
	// too, unless MemorySolverOnly (for tests, whose process holds more).
	MaxMemory        int64
	MemorySolverOnly bool
	// Threads is how many goroutines search the one tree of the MCTS form
	// (0 or 1: the sequential search). See runThreads. The Evaluator is
	// then called from several goroutines at once and must allow it.
	Threads int
	// Slots, when set, makes the sequential MCTS form take turns with the
	// other searches that share them: it searches only while it holds a
	// slot (see Slots). Threads above 1 ignore it.
	Slots *Slots
	// Batch is how many leaves the sequential MCTS form evaluates at once
	// (0 or 1: one), under virtual loss: a BatchEvaluator gets them in one
	// call.
	Batch int
	// DepthDiscount brings paper 001's Faster to Life into the value of a
	// search whose evaluator has no d-win head: the value of an unproven
	// leaf for the living side is multiplied by DepthDiscount to the power
	// of the leaf's depth (plies from the root), as the FTL network's
	// win-within-d value falls when it is queried at d minus the search
	// depth. Lines that go deep without reaching life (a group running
	// into open space, a chase) then look worse than short ones, and the
	// search spends its nodes on the quick lives that make small proofs.
	// A proven node backs up its exact value, undiscounted. It only orders
	// the MCTS form's search, never proves anything. 0 or 1: no discount.
	DepthDiscount float64
	// FPUReduction lowers the first-play urgency of the MCTS form's
	// unvisited children, which otherwise score as their parent's value,
	// by FPUReduction × √(prior mass of the visited children), as Leela
	// Zero and KataGo do. Without it a node whose evaluator values are
	// flat (most of them: life is decided far below) spreads its visits
	// over every move, the one-in-a-thousand priors included, where the
	// living side needs one good move and the killer's moves are refuted
	// cheapest through the few that matter. It only orders the search.
	// 0: none.
	FPUReduction float64
	// Safety adds to the judge a recognition of life under alternating
	// play (safeLife): a living group whose small enclosed regions give it
	// Benson's life whatever the killer does, the living side answering,
	// is proven alive there with those regions as its zone, where the
	// search would otherwise play the exchanges out. It proves, so it is
	// held to the soundness tests like the judge.
	Safety bool
	// ProofBonus brings proof numbers into the MCTS form. At the living
	// side's nodes a visited, unproven move scores ProofBonus ×
	// fewest/left more, where left is the number of killer moves its AND
	// node has still to refute (the must-play region less the refuted
	// moves, so a refuted pass counts with its zone) and fewest the least
	// such number among the node's visited moves. With every living node
	// below counting 1 until proven, left is the AND node's proof number,
	// and proof-number search would press on with the move of the fewest.
	// The values alone cannot see this: where they are flat (life decided
	// far below), a move whose zone leaves the killer 12 tries looks as
	// good as one that leaves 130. It only orders the search. 0: off.
	ProofBonus float64
	// Online makes the search learn from its own proofs as it goes: when
	// the evaluator is a Learned whose ranker is a LearnerSource, the
	// search ranks with a ProofLearner of it (Learner, or a fresh one),
	// told at every node it proves won for the side to move which move
	// won and which others it had visited there without a win (see
	// learn). It only orders the search.
	Online bool
	// Learner, with Online, is the learner the search ranks with and
	// learns into instead of a fresh one: searches given the same one (a
	// portfolio's members) learn from each other's proofs, and each one's
	// order then depends on the others' timing. It must be made from the
	// ranker of the search's Learned evaluator (its NewLearner), since it
	// ranks in that ranker's place. Nil: a fresh one per search.
	Learner ProofLearner
}

func (o *Options) defaults(pr *game.Problem) {
	if o.Budget <= 0 {
		o.Budget = 500000
	}
	if o.Evaluator == nil {
		o.Evaluator = Heuristic{}
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = 4*pr.Region.Len() + 20
	}
	o.DepthDiscount = effectiveDiscount(o.DepthDiscount)
}

// effectiveDiscount is the DepthDiscount a setting d searches with: d
// itself in (0, 1], else 1 (none).
func effectiveDiscount(d float64) float64 {
	if d <= 0 || d > 1 {
		return 1
	}
	return d
}

// Result is the outcome of a solve.
type Result struct {
	Status Status // Win: the living side is proven to live; Loss: to fail
	// FirstMove is the winning first move of the side to play when it is
	// the proven winner, Pass when the side to play is proven to fail, and
	// NoPoint when unproven.
	FirstMove game.Point
	Nodes     int
	Seconds   float64
	// Zone is the root's relevance zone when the living side wins.
	Zone   game.PointSet
	TTHits int
	// TableHits counts nodes proven by the pattern table.
	TableHits int
	Tree      *ProofTree // the searched tree, for solution output
	Aborted   bool       // stopped by the context, the timeout or the memory bound
	// Reason says why an unproven search stopped before its budget, when
	// it was not the context or the timeout ("memory bound 500MB reached").
	Reason string
	// MemoryBytes is the solver's own count of the memory it held at the
	// end (tree, zones, transposition table; not the pattern table).
	MemoryBytes int64
}

// errBudget is returned internally when the budget runs out.
var errBudget = errors.New("rzs: budget exhausted")

// Solve runs the MCTS form of RZS on a problem.
func Solve(ctx context.Context, pr *game.Problem, opts Options) Result {
	opts.defaults(pr)
	s := newMCTSSolver(pr, opts)
	return s.run(ctx)
}

type mcSolver struct {
	pr     *game.Problem
	opts   Options
	living game.Color
	tree   *memTree
	zones  *zoneArena
	and    *arena[andState]
	// tableTime is the pattern table's clock at a node's last lookup (by
	// node record; only with a table).
	tableTime *arena[uint64]
	tt        *TT
	rules     proofRules
	nodes     int
	all       game.PointSet
	allZone   int32 // zone reference of all (--no-rz wins)
	// tableHits counts nodes proven by the pattern table.
	tableHits int
	mem       memBound
	// The search (see runSearch): the leaves queued in the current step,
	// every path made (one per leaf in flight at most), those free and the
	// current descent's, and the batch evaluation's requests with their
	// leaves' work.
	search     *mcts.Search[*leafPath]
	batch      []*mcts.Leaf[*leafPath]
	paths      []*leafPath
	freePaths  []*leafPath
	descending *leafPath
	reqs       []EvalRequest
	reqWork    []*leafWork
	// leafEval evaluates the leaves: Options.Evaluator, or its Coarse part
	// when refiner refines the priors later (see refine).
	leafEval      Evaluator
	refiner       PriorRefiner
	refining      []float32 // refine's priors
	refiningMoves []game.Point
	// learner learns from the search's proofs (Options.Online; nil
	// without), lost its scratch.
	learner ProofLearner
	lost    []game.Point
}

func newMCTSSolver(pr *game.Problem, opts Options) *mcSolver {
	opts, learner := withLearner(opts)
	start := pr.Start
	s := &mcSolver{
		pr: pr, opts: opts, living: pr.Living(),
		tree:    newMemTree(&pr.Region, start.Cells(), start.ToMove().Opponent(), opts.MaxMemory),
		zones:   newZoneArena(),
		and:     newArena[andState](),
		all:     start.AllPoints(),
		rules:   newProofRules(pr, opts.NoRZ),
		learner: learner,
	}
	s.leafEval = opts.Evaluator
	// Threads share the tree under a lock and evaluate outside it; a
	// refinement would run under it, so they evaluate in full.
	if r, ok := opts.Evaluator.(PriorRefiner); ok && opts.Threads <= 1 {
		s.leafEval, s.refiner = r.Coarse(), r
	}
	s.tree.fpuReduction = opts.FPUReduction
	s.tree.proofBonus = opts.ProofBonus
	s.allZone = s.zones.add(s.all)
	if opts.Table != nil {
		s.tableTime = newArena[uint64]()
	}
	if !opts.NoTT {
		s.tt = NewTT(0)
		s.tt.zones, s.tt.shared = s.zones, true
	}
	s.mem.init(opts.MaxMemory)
	return s
}

// pathStep is one node on the current descent with its position and the
// crucial stones still standing there.
type pathStep struct {
	id       int32
	pos      *game.Position
	standing game.PointSet
}

func (s *mcSolver) run(ctx context.Context) Result {
	startTime := time.Now()
	var deadline time.Time
	if s.opts.Timeout > 0 {
		deadline = startTime.Add(s.opts.Timeout)
	}
	var aborted bool
	var reason string
	s.search = mcts.NewSearch(searchTree{s.tree, s}, s.living, 0, s.searchHooks())
	if s.opts.Threads > 1 {
		aborted, reason = s.runThreads(ctx, deadline)
	} else {
		aborted, reason = s.runSearch(ctx, deadline)
	}
	res := Result{Status: s.status(rootNode), Nodes: s.nodes, Seconds: time.Since(startTime).Seconds(),
		TTHits: s.tt.hitCount(), TableHits: s.tableHits, Aborted: aborted, Reason: reason, FirstMove: game.NoPoint,
		MemoryBytes: s.memoryBytes()}
	if z := s.tree.node(rootNode).zone; z != 0 {
		res.Zone = s.zones.get(z)
	}
	res.FirstMove = s.firstMove()
	res.Tree = s.proofTree()
	return res
}

func (t *TT) hitCount() int {
	if t == nil {
		return 0
	}
	return t.hits
}

// status returns the proof status of a node record.
func (s *mcSolver) status(id int32) Status { return s.tree.node(id).status }

// expanded reports whether a node's children have been created.
func (s *mcSolver) expanded(id int32) bool { return s.tree.node(id).flags&flagExpanded != 0 }

// historyDep reports whether a node's proof may rest on its path's superko
// history (see createChildren); such results are kept out of the
// transposition table and the pattern table.
func (s *mcSolver) historyDep(id int32) bool { return s.tree.node(id).flags&flagHistoryDep != 0 }

// nodeZone returns the zone of a won node, nil if it has none.
func (s *mcSolver) nodeZone(id int32) *game.PointSet {
	z := s.tree.node(id).zone
	if z == 0 {
		return nil
	}
	return s.zones.a.at(z)
}

// firstMove picks the proven winner's first move at the root.
func (s *mcSolver) firstMove() game.Point {
	st := s.status(rootNode)
	if st == Unknown {
		return game.NoPoint
	}
	toMove := s.pr.Start.ToMove()
	moverWins := (st == Win) == (toMove == s.living)
	if !moverWins {
		return game.Pass
	}
	want := st // a child with the root's status proves it
	first := game.NoPoint
	s.tree.visited(rootNode, func(c int32) {
		if first == game.NoPoint && s.status(c) == want {
			first = s.tree.node(c).move
		}
	})
	return first
}

// skipper tells selection which children of a node to pass over: proven
// children that cannot change the node's status, and at AND nodes the
// moves outside the must-play region. It is a plain value (not a closure)
// so that a descent allocates nothing.
type skipper struct {
	s  *mcSolver
	or bool
	ns *andState // the AND node's state, nil before any child is proven
}

// skipper returns the skipper of node id.
func (s *mcSolver) skipper(id int32) skipper {
	k := skipper{s: s, or: s.isOR(id)}
	if a := s.tree.node(id).aux; !k.or && a != 0 {
		k.ns = s.and.at(a)
	}
	return k
}

// skip reports whether to pass over the child with move m; rec is the
// child's record, 0 when it has never been visited (and so is unproven).
func (k skipper) skip(m game.Point, rec int32) bool {
	if rec != 0 && refutes(k.or, k.s.status(rec)) {
		return true
	}
	return !k.or && !inMustPlay(k.ns, m)
}

// prunes reports whether skip may name an unvisited child: only an AND
// node's must-play region does, once one of its children is proven.
func (k skipper) prunes() bool { return !k.or && k.ns != nil }

// refutes reports whether a child proven kid is a move that fails the side
// to move at its parent, an OR node when or: lost at the living side's
// node, won for the living side at the killer's.
func refutes(or bool, kid Status) bool {
	if or {
		return kid == Loss
	}
	return kid == Win
}

// remaining returns how many killer moves are left to refute at the
// visited, unproven AND node rec: its must-play region less the refuted
// moves, or all its moves before any is refuted. ok is false for a proven
// or unexpanded node.
func (k skipper) remaining(rec int32) (int, bool) {
	s := k.s
	n := s.tree.node(rec)
	if n.status != Unknown || n.flags&flagExpanded == 0 {
		return 0, false
	}
	if n.aux != 0 {
		a := s.and.at(n.aux)
		r := a.mustPlay.Len()
		if a.mustPass {
			r++
		}
		return max(r, 1), true
	}
	c, has := s.tree.kidsOf(rec)
	if !has {
		return 0, false
	}
	return max(c.n, 1), true
}

// isOR reports whether the living side moves at node id.
func (s *mcSolver) isOR(id int32) bool {
	return s.tree.node(id).player() != s.living
}
