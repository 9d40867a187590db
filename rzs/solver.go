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
	Aborted   bool       // stopped by the context or the timeout
}

// errBudget is returned internally when the budget runs out.
var errBudget = errors.New("rzs: budget exhausted")

// Solve runs the MCTS form of RZS on a problem.
func Solve(ctx context.Context, pr *game.Problem, opts Options) Result {
	opts.defaults(pr)
	s := newMCTSSolver(pr, opts)
	return s.run(ctx)
}

// nodeState is the proof bookkeeping of an expanded node.
type nodeState struct {
	// mustPlay is the AND node's must-play region M (points; mustPass says
	// whether the pass is still in M).
	mustPlay game.PointSet
	mustPass bool
	union    game.PointSet // AND node: union of the proven children's zones
	standing game.PointSet // crucial stones still standing here
	// tableTime is the pattern table's clock at this node's last lookup.
	tableTime uint64
}

type mcSolver struct {
	pr     *game.Problem
	opts   Options
	living game.Color
	tree   *mcts.Tree
	status []Status
	zone   map[mcts.NodeID]*game.PointSet // zones of proven wins
	change map[mcts.NodeID]*game.PointSet // points changed by the move into a node
	state  map[mcts.NodeID]*nodeState     // expanded nodes
	tt     *TT
	nodes  int
	all    game.PointSet
	// tableHits counts nodes proven by the pattern table.
	tableHits int
	frames    []game.Position // one per depth, reused (see simulate)
	// historyDep marks expanded nodes whose proof may rest on the superko
	// history of their path (see createChildren); such results are kept out of
	// the transposition table and the pattern table.
	historyDep map[mcts.NodeID]bool
	path       []pathStep
}

func newMCTSSolver(pr *game.Problem, opts Options) *mcSolver {
	start := pr.Start
	s := &mcSolver{
		pr: pr, opts: opts, living: pr.Living(),
		tree:   mcts.NewTree(start.ToMove().Opponent()),
		status: []Status{Unknown},
		zone:   map[mcts.NodeID]*game.PointSet{},
		change: map[mcts.NodeID]*game.PointSet{},
		state:  map[mcts.NodeID]*nodeState{},
		all:    start.AllPoints(),
	}
	if !opts.NoTT {
		s.tt = NewTT(0)
	}
	s.frames = make([]game.Position, opts.MaxDepth+2)
	s.historyDep = map[mcts.NodeID]bool{}
	return s
}

// pathStep is one node on the current descent with its position.
type pathStep struct {
	id  mcts.NodeID
	pos *game.Position
}

func (s *mcSolver) run(ctx context.Context) Result {
	startTime := time.Now()
	var deadline time.Time
	if s.opts.Timeout > 0 {
		deadline = startTime.Add(s.opts.Timeout)
	}
	aborted := false
	for s.status[0] == Unknown && s.nodes < s.opts.Budget {
		if s.nodes%256 == 0 && (ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline))) {
			aborted = true
			break
		}
		if !s.simulate() {
			break // nothing left to search (only over-deep lines remain)
		}
	}
	res := Result{Status: s.status[0], Nodes: s.nodes, Seconds: time.Since(startTime).Seconds(),
		TTHits: s.tt.hitCount(), TableHits: s.tableHits, Aborted: aborted, FirstMove: game.NoPoint}
	if z := s.zone[0]; z != nil {
		res.Zone = *z
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

// firstMove picks the proven winner's first move at the root.
func (s *mcSolver) firstMove() game.Point {
	st := s.status[0]
	if st == Unknown {
		return game.NoPoint
	}
	toMove := s.pr.Start.ToMove()
	moverWins := (st == Win) == (toMove == s.living)
	if !moverWins {
		return game.Pass
	}
	want := st // a child with the root's status proves it
	for _, c := range s.tree.Children(0) {
		if s.status[c] == want {
			return s.tree.Node(c).Move
		}
	}
	return game.NoPoint
}

// simulate runs one descent, expansion and backup. It reports false when
// the root has no selectable child left.
func (s *mcSolver) simulate() bool {
	// Positions live in frames reused by every simulation: a frame is a
	// plain copy of its parent's, so it shares the superko history's spare
	// capacity and each move appends its hash in place, like a stack. No
	// position of a finished simulation is kept.
	s.frames[0] = *s.pr.Start
	path := append(s.path[:0], pathStep{0, &s.frames[0]})
	defer func() { s.path = path[:0] }()
	if s.state[0] == nil {
		s.expand(path)
		return true
	}
	for {
		cur := path[len(path)-1]
		if s.state[cur.id] == nil {
			break
		}
		if s.opts.Table != nil && s.status[cur.id] == Unknown && len(path) > 1 && s.lookupTable(int32(cur.id), cur.pos) {
			s.propagate(path)
			s.backupProven(cur.id)
			return true
		}
		child := s.tree.Select(cur.id, s.skipper(cur.id))
		if child == mcts.None {
			if len(path) == 1 {
				return false
			}
			// Every child of an inner node is proven or pruned but the node
			// is not: cannot happen after propagation; back off safely.
			s.tree.Backup(cur.id, 0.5, s.living, false)
			return true
		}
		next := &s.frames[len(path)]
		*next = *cur.pos
		if err := next.Play(s.tree.Node(child).Move); err != nil {
			// Children are legal moves of their parent's position.
			panic("rzs: child move illegal: " + err.Error())
		}
		path = append(path, pathStep{child, next})
		if len(path) > s.opts.MaxDepth {
			s.tree.Backup(child, 0.5, s.living, false)
			return true
		}
	}
	s.expand(path)
	return true
}

// skipper tells selection which children of id to pass over: proven
// children that cannot change id's status, and at AND nodes the moves
// outside the must-play region.
func (s *mcSolver) skipper(id mcts.NodeID) func(mcts.NodeID) bool {
	if s.isOR(id) {
		return func(c mcts.NodeID) bool { return s.status[c] == Loss }
	}
	ns := s.state[id]
	return func(c mcts.NodeID) bool {
		return s.status[c] == Win || !s.inMustPlay(ns, s.tree.Node(c).Move)
	}
}

func (s *mcSolver) inMustPlay(ns *nodeState, m game.Point) bool {
	if m == game.Pass {
		return ns.mustPass
	}
	return ns.mustPlay.Has(m)
}

// isOR reports whether the living side moves at node id.
func (s *mcSolver) isOR(id mcts.NodeID) bool {
	return s.tree.Node(id).Player != s.living
}
