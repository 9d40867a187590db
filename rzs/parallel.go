package rzs

import (
	"context"
	"runtime"
	"sync"
	"time"

	"lifezero/game"
)

// runThreads is the MCTS form on Options.Threads goroutines sharing one
// tree (tree parallelism with virtual loss). A worker holds the lock while
// it walks down the tree, and again while it applies an expansion (the
// transposition and pattern tables, the proof rules, the backup), so every
// proof is applied exactly as in the sequential search; between the two it
// judges the leaf and runs the evaluator, the bulk of a node's cost,
// without the lock. A leaf being expanded is marked pending: a walk that
// reaches it is taken back and tried again. The memory bound's reclaiming
// waits until no expansion is in flight, since it may free records that a
// pending leaf's path holds.
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
	inflight int  // expansions computed outside the lock
	memDue   bool // a memory check waits for inflight to reach 0
}

// work is one worker's loop.
func (r *threadRun) work() {
	s := r.s
	frames := make([]game.Position, s.opts.MaxDepth+2)
	var path []pathStep
	var w leafWork
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
		var end descent
		path, end = s.descend(frames, path[:0], s.pr.Start) // copied into frames[0]
		switch end {
		case descentDone:
			s.tree.unvisit(path)
			continue
		case descentBusy:
			s.tree.unvisit(path)
			r.yield()
			continue
		case descentStuck:
			s.tree.unvisit(path)
			if r.inflight == 0 {
				r.stop = true // nothing left to search (only over-deep lines)
			} else {
				r.yield() // an expansion in flight may open the root again
			}
			continue
		}
		leaf := &path[len(path)-1]
		s.tree.node(leaf.id).flags |= flagPending
		r.inflight++
		r.mu.Unlock()
		w.reset()
		w.judge(s.pr, leaf.pos, &leaf.standing)
		if w.j.Outcome == game.Undecided {
			w.generate(s.pr, s.opts.Evaluator, leaf.pos, &leaf.standing)
		}
		r.mu.Lock()
		r.inflight--
		s.tree.node(leaf.id).flags &^= flagPending
		s.tree.unvisit(path)
		s.expandWith(path, &w)
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
