package rzs

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"lifezero/game"
)

// SolvePortfolio runs one MCTS-form search per entry of members at once,
// each with its own tree, tables and goroutines (a member's Threads), and
// stops them all as soon as one proves the root. It returns that member's
// result and index, or, when none proves it, member 0's result and -1.
//
// This is portfolio parallelism, as SAT and CSP solvers use it: the members
// share nothing (unless given one LockedTable, below), so there is no
// lock and each member's search is exactly the one it would run alone,
// and they differ in how they order the search (the settings that only
// order it, such as FPUReduction or DepthDiscount), so that one may find
// the proof another's order misses. Every member is
// sound, so the first proof is a proof; two members cannot prove opposite
// results. The result counts every member's nodes (the work done), and its
// Seconds is the wall time until the proof or the last member's stop. A
// member's Table must be its own, since tables are not safe for
// concurrent use, or one LockedTable that all members share: then a win
// one member stores proves the same pattern in the others' trees, and
// each member's search depends on the others' timing.
// The members' Evaluators are called from their goroutines at once and
// must allow it, as with Threads.
func SolvePortfolio(ctx context.Context, pr *game.Problem, members []Options) (Result, int) {
	if len(members) == 0 {
		return Result{Status: Unknown, FirstMove: game.NoPoint}, -1
	}
	start := time.Now()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make([]Result, len(members))
	winner := -1
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, opts := range members {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := Solve(ctx, pr, opts)
			mu.Lock()
			defer mu.Unlock()
			results[i] = res
			if res.Status != Unknown && winner < 0 {
				winner = i
				cancel()
			}
		}()
	}
	wg.Wait()
	nodes := 0
	for _, r := range results {
		nodes += r.Nodes
	}
	res := results[0]
	if winner >= 0 {
		res = results[winner]
	}
	res.Nodes, res.Seconds = nodes, time.Since(start).Seconds()
	return res, winner
}

// PortfolioMembers returns the options of a portfolio of n members.
// Member 0 is base itself, so that a portfolio proves at least what base
// proves alone in its time; the others change how the search is ordered
// and judged, in this order: the first-play-urgency reduction off; the
// reduction, Safety and the proof bonus off; the reduction and the depth
// discount off; all four off. Safety is a judge, not an order: without it
// a member sees less life at a leaf but searches faster, and its proofs
// are others, as sound.
//
// Member 2, the plainest search short of dropping the discount, proves
// what neither of the first two does (docs/results/tsumego.md, session
// 17: as the second member under the papers' protocol it proves cho19-dev
// 017 and 047, which the first two do not, but loses 019 on cho19-dev and
// 17 and 20 on killall7x7, which member 1 proves); it comes third so that
// a portfolio of two is the pair that proves the most on both sets, and a
// machine with more cores adds it. Member 3 drops the discount with the
// reduction, not the discount alone: at 500,000 nodes the search without
// either (with ldb-nakade, session 28's ablation) proves two cho19-dev
// problems the defaults do not, one of them (085) proven by no paper,
// while under the protocol the discount alone, with the reduction on,
// proved none of the four the first three leave (session 25). With Safety
// and the proof bonus both off in base, member 3 is then member 4, so
// such a base gives three members, not four.
//
// A change that leaves the search as base's or as an earlier member's (a
// setting that is off already) is skipped, and it is an error to ask for
// more members than there are distinct searches: two members searching
// alike would do the same work twice. The members' DepthDiscount is the
// one they search with (effectiveDiscount), so that members that search
// alike compare equal.
func PortfolioMembers(base Options, n int) ([]Options, error) {
	base.DepthDiscount = effectiveDiscount(base.DepthDiscount)
	var distinct []Options
	for _, off := range []struct{ fpu, safety, discount, bonus bool }{
		{}, {fpu: true}, {fpu: true, safety: true, bonus: true}, {fpu: true, discount: true}, {true, true, true, true},
	} {
		o := base
		if off.fpu {
			o.FPUReduction = 0
		}
		if off.safety {
			o.Safety = false
		}
		if off.discount {
			o.DepthDiscount = 1
		}
		if off.bonus {
			o.ProofBonus = 0
		}
		if !slices.ContainsFunc(distinct, func(x Options) bool {
			return x.DepthDiscount == o.DepthDiscount && x.FPUReduction == o.FPUReduction &&
				x.Safety == o.Safety && x.ProofBonus == o.ProofBonus
		}) {
			distinct = append(distinct, o)
		}
	}
	if n > len(distinct) {
		return nil, fmt.Errorf("%d: these settings give only %d distinct searches (the members turn the fpu reduction, safety, the depth discount and the proof bonus off, and a setting already off cannot vary)", n, len(distinct))
	}
	return distinct[:n], nil
}

// MaxPortfolio is the most members PortfolioMembers gives: the settings
// as given and four changes of them.
const MaxPortfolio = 5
