package evaluate

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"lifezero/game"
	"lifezero/rzs"
)

// solvePortfolio solves pr with cfg.Portfolio searches at once
// (rzs.SolvePortfolio). Each member has its own pattern table (table, when
// not nil, is member 0's; the others are built as it was) or, with
// PortfolioShare, all share table through a lock; each has its share of
// the threads (or, with fewer threads than members, one thread, taking
// turns on the threads with the others: rzs.Slots) and of the memory bound
// (a conservative split: each member's check also counts the Go heap,
// which all members share). It returns the result, the pattern table of
// the member whose result it is, and that member's settings when it proved
// the root ("" otherwise).
func (c SolveConfig) solvePortfolio(ctx context.Context, pr *game.Problem, table patternTable) (rzs.Result, patternTable, string, error) {
	base := c.options()
	base.Threads = max(c.Threads/c.Portfolio, 1)
	if base.MaxMemory > 0 {
		base.MaxMemory /= int64(c.Portfolio)
	}
	members, err := c.portfolioMembers(base)
	if err != nil {
		return rzs.Result{}, nil, "", fmt.Errorf("portfolio: %w", err)
	}
	if c.Threads > 0 && c.Threads < c.Portfolio {
		slots := rzs.NewSlots(c.Threads)
		for k := range members {
			members[k].Slots = slots
		}
	}
	tables := make([]patternTable, len(members))
	shared := c.PortfolioShare && table != nil
	if shared {
		table = sharedTable{rzs.NewLockedTable(table)}
	}
	for k := range members {
		t := table
		if k > 0 && table != nil && !shared {
			// Member 0's table holds only what was preloaded: copying it
			// gives the same entries in the same order without reading
			// the databases again (a second of a 100,000-entry load).
			t = c.emptyTable(pr)
			if err := t.ImportPatterns(table.ExportPatterns()); err != nil {
				return rzs.Result{}, nil, "", fmt.Errorf("portfolio: %w", err)
			}
		}
		if t != nil {
			tables[k], members[k].Table = t, t
		}
	}
	res, winner := rzs.SolvePortfolio(ctx, pr, members)
	if winner < 0 {
		return res, tables[0], "", nil
	}
	settings := searchSettings(AlgoMCTS, members[winner])
	if c.PortfolioEvaluator != "" {
		settings += " evaluator=" + c.memberEvaluatorName(winner)
	}
	if c.PortfolioRanker != nil {
		settings += " ranker=" + c.memberRankerName(winner)
	}
	if c.playsOut(winner) {
		settings += " " + c.playoutsName()
	}
	return res, tables[winner], settings, nil
}

// portfolioMembers returns the options of c's portfolio members, base
// their common options: rzs.PortfolioMembers' settings, or, with a second
// model (PortfolioRanker), those settings in pairs, the pair's odd member
// reweighting its priors by the second model; with a second evaluator
// (PortfolioEvaluator), the members after the first search with it (or
// each with its own, from a list); with OnlineMember, the last is the
// first's twin and learns.
func (c SolveConfig) portfolioMembers(base rzs.Options) ([]rzs.Options, error) {
	settings, err := rzs.PortfolioMembers(base, c.portfolioSettings())
	if err != nil {
		return nil, err
	}
	members := make([]rzs.Options, c.Portfolio)
	var learners [2]rzs.ProofLearner // by model (memberModel)
	for k := range c.settingMembers() {
		members[k] = settings[c.memberSetting(k)]
		ranker := c.memberRanker(k)
		members[k].Evaluator = withRanker(c.memberBase(k), ranker)
		if src, ok := ranker.(rzs.LearnerSource); c.OnlineShare && ok {
			// One learner per model: a learner ranks in its model's
			// place, so members of two models (PortfolioRanker) share
			// with their own model's members only.
			m := c.memberModel(k)
			if learners[m] == nil {
				learners[m] = src.NewLearner()
			}
			members[k].Learner = learners[m]
		}
	}
	if c.OnlineMember {
		// A learner of its own: Validate refuses OnlineShare here, and
		// the first's would be shared with the twin.
		twin := members[0]
		twin.Online, twin.Learner = true, nil
		twin.Evaluator = withRanker(c.memberBase(c.Portfolio-1), c.memberRanker(0))
		members[c.Portfolio-1] = twin
	}
	return members, nil
}

// memberSetting is the index of member k's setting among the
// portfolioSettings() distinct ones: its own, or its pair's when two
// models alternate.
func (c SolveConfig) memberSetting(k int) int {
	if c.PortfolioRanker != nil {
		return k / 2
	}
	return k
}

// memberBase is the evaluator member k's model reweights: its evaluator
// after the first member (PortfolioEvaluator; the twin of OnlineMember
// takes the first's), else the base; with the playouts when k plays out
// (playsOut).
func (c SolveConfig) memberBase(k int) rzs.Evaluator {
	ev := c.orderingEvaluator()
	if k > 0 && c.PortfolioEvaluator != "" && !c.isOnlineMember(k) {
		ev = builtinEvaluator(c.memberEvaluatorName(k))
	}
	if !c.playsOut(k) {
		return ev
	}
	return c.withPlayouts(ev)
}

// playsOut reports whether member k's value has the playouts: every
// member's when PlayoutMembers lists none.
func (c SolveConfig) playsOut(k int) bool {
	if c.Playouts <= 0 {
		return false
	}
	if c.PlayoutMembers == "" {
		return true
	}
	members, _ := c.playoutMembers() // Validate refuses a bad list
	return slices.Contains(members, k)
}

// playoutMembers parses PlayoutMembers.
func (c SolveConfig) playoutMembers() ([]int, error) {
	var members []int
	for f := range strings.SplitSeq(c.PlayoutMembers, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 0 || k >= c.Portfolio {
			return nil, fmt.Errorf("%q: want member indices from 0 to %d, comma-separated", f, c.Portfolio-1)
		}
		members = append(members, k)
	}
	return members, nil
}

// memberRanker is member k's model: the second one at odd members when two
// alternate (PortfolioRanker), else the first.
func (c SolveConfig) memberRanker(k int) rzs.MoveRanker {
	if c.memberModel(k) == 1 {
		return c.PortfolioRanker
	}
	return c.Ranker
}

// memberModel is 1 when member k ranks by the second model
// (PortfolioRanker, at odd members), else 0.
func (c SolveConfig) memberModel(k int) int {
	if k%2 == 1 && c.PortfolioRanker != nil {
		return 1
	}
	return 0
}

// memberEvaluatorName names member k's built-in evaluator: Evaluator for
// member 0 and its learning twin (OnlineMember); else its name in
// PortfolioEvaluator.
func (c SolveConfig) memberEvaluatorName(k int) string {
	if k == 0 || c.PortfolioEvaluator == "" || c.isOnlineMember(k) {
		return c.Evaluator
	}
	return c.memberEvaluatorNames()[k-1]
}

// memberRankerName names the model that ordered member k's search when two
// alternate (see SolveConfig.PortfolioRanker).
func (c SolveConfig) memberRankerName(k int) string {
	name, fallback := c.RankerName, "first"
	if k%2 == 1 {
		name, fallback = c.PortfolioRankerName, "second"
	}
	if name == "" {
		return fallback
	}
	return name
}

// searchSettings writes the settings that order a search of form algo, and
// the judge's safety, as the solve params spell them: a result's record
// of how it was reached, and what tells a portfolio's members apart. o's
// DepthDiscount is the one it searches with, as SolveConfig.withDefaults
// and rzs.PortfolioMembers give it (1 for none).
func searchSettings(algo string, o rzs.Options) string {
	s := fmt.Sprintf("safety=%t", o.Safety)
	if algo != AlgoMCTS {
		return s
	}
	s = fmt.Sprintf("depth_discount=%g fpu_reduction=%g %s", o.DepthDiscount, o.FPUReduction, s)
	if o.ProofBonus > 0 {
		s += fmt.Sprintf(" proof_bonus=%g", o.ProofBonus)
	}
	if o.Online {
		s += " online=true"
	}
	if o.Learner != nil {
		s += " online_share=true"
	}
	return s
}

// sharedTable is a pattern table the portfolio's members share.
type sharedTable struct {
	*rzs.LockedTable[patternTable]
}

func (s sharedTable) PatternKey() rzs.PatternKey          { return s.Table.PatternKey() }
func (s sharedTable) ExportPatterns() []rzs.PatternRecord { return s.Table.ExportPatterns() }
func (s sharedTable) ImportPatterns(recs []rzs.PatternRecord) error {
	return s.Table.ImportPatterns(recs)
}
