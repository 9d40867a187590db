package rzs

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"time"

	"lifezero/game"
	"lifezero/mcts"
)

// runThreads is the MCTS form on Options.Threads goroutines sharing one
// tree and one mcts.Search (tree parallelism with virtual loss). The search
// is not safe for concurrent use: a worker holds the lock while it descends
// to a leaf, and again while it settles the leaf (the transposition and
// pattern tables, the proof rules) and the search backs it up, so every
// proof is applied exactly as in the sequential search; between the two it
// judges the leaf and runs the evaluator, the bulk of a node's cost,
// without the lock. A leaf in flight is pending in the search: a descent
// that reaches it collides and is tried again. The memory bound's
// reclaiming waits until no leaf is in flight, since it may free records
// that a pending leaf's path holds.
//
// It returns whether the search stopped early and, for the memory bound,
// why.
func (s *mcSolver) runThreads(ctx context.Context, deadline time.Time) (aborted bool, reason string) {
	r := threadRun{s: s, ctx: ctx, deadline: deadline}
	s.tree.virtual = make(map[int32]int32)
	defer func() { s.tree.virtual = nil }()
	var wg sync.WaitGroup
	for range s.opts.Threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.work()
		}()
	}
	wg.Wait()
	return r.aborted, r.reason
}

// threadRun is the state the workers of runThreads share, guarded by mu.
type threadRun struct {
	s        *mcSolver
	ctx      context.Context
	deadline time.Time
	mu       sync.Mutex
	stop     bool
	aborted  bool
	reason   string
	inflight int  // leaves judged and evaluated outside the lock
	memDue   bool // a memory check waits for inflight to reach 0
}

// work is one worker's loop.
func (r *threadRun) work() {
	s := r.s
	r.mu.Lock()
	defer r.mu.Unlock()
	for !r.stop {
		if !r.mayGoOn() {
			break
		}
		if r.memDue {
			if r.inflight > 0 {
				r.yield()
				continue
			}
			r.memDue = false
			if why := s.checkMemory(); why != "" {
				r.stop, r.aborted, r.reason = true, true, why
				break
			}
		}
		lf, collided, err := s.simulate()
		switch {
		case errors.Is(err, mcts.ErrNoChild):
			if r.inflight == 0 {
				r.stop = true // nothing left to search (only over-deep lines)
			} else {
				r.yield() // a leaf in flight may open the root again
			}
			continue
		case err != nil:
			panic("rzs: " + err.Error()) // children are legal moves of their parent's position
		case collided:
			r.yield()
			continue
		case lf == nil:
			continue // a game end or a table proof, backed up
		}
		r.inflight++
		r.mu.Unlock()
		p := lf.State
		leaf := &p.path[len(p.path)-1]
		p.w.reset()
		p.w.judge(s.pr, leaf.pos, &leaf.standing, s.opts.Safety)
		if p.w.j.Outcome == game.Undecided {
			p.w.generate(s.pr, s.leafEval, leaf.pos, &leaf.standing)
		}
		r.mu.Lock()
		r.inflight--
		s.settleLeaf(lf)
		s.search.Apply(lf)
	}
}

// mayGoOn checks the root, the budget, the context and the deadline, and
// notes a due memory check; it reports false when the search is over.
func (r *threadRun) mayGoOn() bool {
	s := r.s
	if s.status(rootNode) != Unknown || s.nodes >= s.opts.Budget {
		r.stop = true
		return false
	}
	if s.nodes%256 == 0 && (r.ctx.Err() != nil || (!r.deadline.IsZero() && time.Now().After(r.deadline))) {
		r.stop, r.aborted = true, true
		return false
	}
	if s.mem.due(s.nodes) {
		r.memDue = true
	}
	return true
}

// yield lets the other workers run before this one tries again.
func (r *threadRun) yield() {
	r.mu.Unlock()
	runtime.Gosched()
	r.mu.Lock()
}
