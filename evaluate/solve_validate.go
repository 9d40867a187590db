package evaluate

import (
	"fmt"
	"strings"

	"lifezero/rzs"
)

// SolveConfigError is a bad field of a SolveConfig; Field is its name as the
// command line and the stage params spell it (budget, algo, ...).
type SolveConfigError struct {
	Field, Msg string
}

func (e *SolveConfigError) Error() string { return e.Field + ": " + e.Msg }

// Validate checks the config; its errors are *SolveConfigError.
func (c SolveConfig) Validate() error {
	c = c.withDefaults()
	evaluatorsErr := ""
	_, playoutMembersErr := c.playoutMembers()
	if c.PortfolioEvaluator != "" { // without a portfolio, or with a network, an earlier case refuses it
		evaluatorsErr = c.portfolioEvaluatorsError()
	}
	switch {
	case c.Algo != AlgoMCTS && c.Algo != AlgoDFS && c.Algo != AlgoDFPN:
		return &SolveConfigError{"algo", fmt.Sprintf("%q: want %s, %s or %s", c.Algo, AlgoMCTS, AlgoDFS, AlgoDFPN)}
	case c.NetWith != "" && builtinEvaluator(c.NetWith) == nil:
		return &SolveConfigError{"net_with", fmt.Sprintf("%q: want one of %s", c.NetWith, strings.Join(EvaluatorNames(), ", "))}
	case c.NetMix != NetBoth && c.NetWith == "":
		return &SolveConfigError{"net_mix", fmt.Sprintf("%q: goes with net_with (what the network is mixed with)", c.NetMix)}
	case c.NetMix != NetBoth && c.NetMix != NetPriors && c.NetMix != NetValue:
		return &SolveConfigError{"net_mix", fmt.Sprintf("%q: want %s, %s or %s", c.NetMix, NetBoth, NetPriors, NetValue)}
	case c.Net == nil && builtinEvaluator(c.Evaluator) == nil:
		return &SolveConfigError{"evaluator", fmt.Sprintf("%q: want one of %s", c.Evaluator, strings.Join(EvaluatorNames(), ", "))}
	case c.Budget < 0:
		return &SolveConfigError{"budget", fmt.Sprintf("%d: must be positive", c.Budget)}
	case c.Timeout < 0:
		return &SolveConfigError{"timeout", fmt.Sprintf("%v: must not be negative", c.Timeout)}
	case c.Workers < 0:
		return &SolveConfigError{"workers", fmt.Sprintf("%d: must be positive", c.Workers)}
	case c.Threads < 0:
		return &SolveConfigError{"threads", fmt.Sprintf("%d: must be positive", c.Threads)}
	case c.DepthDiscount < 0 || c.DepthDiscount > 1:
		return &SolveConfigError{"depth_discount", fmt.Sprintf("%v: want a factor in (0, 1]; 1 turns the discount off", c.DepthDiscount)}
	case c.Playouts < 0:
		return &SolveConfigError{"playouts", fmt.Sprintf("%d: must not be negative (0: none)", c.Playouts)}
	case c.Playouts > 0 && c.Algo != AlgoMCTS:
		return &SolveConfigError{"playouts", fmt.Sprintf("%d: only the mcts form reads the value they give", c.Playouts)}
	case c.PlayoutWeight < 0 || c.PlayoutWeight > 1:
		return &SolveConfigError{"playout_weight", fmt.Sprintf("%v: want a share in (0, 1] (0: %v)", c.PlayoutWeight, DefaultPlayoutWeight)}
	case c.PlayoutWeight != 0 && c.Playouts == 0:
		return &SolveConfigError{"playout_weight", "goes with playouts (how many per position)"}
	case c.PlayoutMembers != "" && (c.Playouts == 0 || c.Portfolio < 2):
		return &SolveConfigError{"playout_members", "goes with playouts and a portfolio (which of its members play out)"}
	case c.PlayoutMembers != "" && playoutMembersErr != nil:
		return &SolveConfigError{"playout_members", playoutMembersErr.Error()}
	case c.Batch < 0:
		return &SolveConfigError{"batch", fmt.Sprintf("%d: must not be negative", c.Batch)}
	case c.Batch > 1 && (c.Threads > 1 || c.Algo != AlgoMCTS):
		return &SolveConfigError{"batch", fmt.Sprintf("%d: only the mcts form's one thread evaluates leaves in batches", c.Batch)}
	case c.Portfolio < 0:
		return &SolveConfigError{"portfolio", fmt.Sprintf("%d: must not be negative", c.Portfolio)}
	case c.Portfolio > 1 && c.Algo != AlgoMCTS:
		return &SolveConfigError{"portfolio", fmt.Sprintf("%d: only the mcts form runs a portfolio", c.Portfolio)}
	case c.Portfolio > 1 && c.Threads > c.Portfolio && c.Threads%c.Portfolio != 0:
		return &SolveConfigError{"threads", fmt.Sprintf("%d: a portfolio of %d splits the threads evenly among its members; want a multiple of %d (or fewer threads than members, which take turns)", c.Threads, c.Portfolio, c.Portfolio)}
	case c.PortfolioShare && c.Portfolio < 2:
		return &SolveConfigError{"portfolio_share", fmt.Sprintf("needs a portfolio of 2 or more members (portfolio is %d)", c.Portfolio)}
	case c.PortfolioShare && c.RZT == RZTNone:
		return &SolveConfigError{"portfolio_share", "shares the pattern table, which rzt none turns off"}
	case c.PortfolioEvaluator != "" && (c.settingMembers() < 2 || c.Net != nil):
		return &SolveConfigError{"portfolio_evaluator", fmt.Sprintf("%q: names the evaluator of a portfolio's members after the first, and needs %s (portfolio is %d%s) and no network",
			c.PortfolioEvaluator, c.membersWanted(2), c.Portfolio, c.twinNote())}
	case evaluatorsErr != "":
		return &SolveConfigError{"portfolio_evaluator", fmt.Sprintf("%q: %s", c.PortfolioEvaluator, evaluatorsErr)}
	case c.PortfolioRanker != nil && (c.Portfolio < 2 || c.Ranker == nil):
		return &SolveConfigError{"portfolio_features_model", fmt.Sprintf("a second model alternates with the first among a portfolio's members: needs a features model and a portfolio of 2 or more (portfolio is %d)", c.Portfolio)}
	case c.Portfolio > 1 && c.Batch > 1:
		return &SolveConfigError{"batch", fmt.Sprintf("%d: a portfolio's members evaluate one leaf at a time", c.Batch)}
	case c.Online && c.Algo != AlgoMCTS:
		return &SolveConfigError{"online", "true: only the mcts form learns during its search"}
	case c.OnlineShare && !c.Online:
		return &SolveConfigError{"online_share", "true: shares online's learner among a portfolio's members, and online is off"}
	case c.OnlineShare && c.Portfolio < 2:
		return &SolveConfigError{"online_share", fmt.Sprintf("true: shares online's learner among a portfolio's members, and needs a portfolio of 2 or more (portfolio is %d)", c.Portfolio)}
	case c.OnlineMember && c.Online:
		return &SolveConfigError{"online_member", "true: makes one member of a portfolio learn, and online makes them all learn"}
	case c.OnlineMember && c.Portfolio < 2:
		return &SolveConfigError{"online_member", fmt.Sprintf("true: makes a portfolio's last member learn, and needs a portfolio of 2 or more (portfolio is %d)", c.Portfolio)}
	case c.OnlineMember && c.PortfolioRanker != nil:
		return &SolveConfigError{"online_member", "true: the learning member is the first's twin, and portfolio_features_model pairs the members by model"}
	case c.Threads > 1 && c.Algo != AlgoMCTS:
		return &SolveConfigError{"threads", fmt.Sprintf("%d: only the mcts form searches with several threads", c.Threads)}
	case c.RZT != RZTTree && c.RZT != RZTLinear && c.RZT != RZTNone:
		return &SolveConfigError{"rzt", fmt.Sprintf("%q: want %s, %s or %s", c.RZT, RZTTree, RZTLinear, RZTNone)}
	case c.RZT != RZTNone && c.Algo != AlgoMCTS:
		return &SolveConfigError{"rzt", "the pattern table works with the mcts form only"}
	}
	if c.Portfolio > 1 {
		if _, err := rzs.PortfolioMembers(c.options(), c.portfolioSettings()); err != nil {
			msg := err.Error()
			switch {
			case c.PortfolioRanker != nil:
				msg = fmt.Sprintf("%d members of two models in pairs need %s", c.Portfolio, msg)
			case c.OnlineMember:
				msg = fmt.Sprintf("%d members, the last online_member's twin of the first, need %s", c.Portfolio, msg)
			}
			return &SolveConfigError{"portfolio", msg}
		}
	}
	return nil
}

// ValidateModels reports the settings that need a model c has not been
// given. Call it once the models are loaded; Validate runs before.
func (c SolveConfig) ValidateModels() error {
	field := "online"
	switch {
	case c.OnlineMember:
		field = "online_member"
	case !c.Online:
		return nil
	}
	if c.Ranker == nil {
		return &SolveConfigError{field, "true: the search learns corrections of a features model's priors, and none is given"}
	}
	if _, ok := c.Ranker.(rzs.LearnerSource); !ok {
		return &SolveConfigError{field, "true: the features model given cannot learn during a search"}
	}
	return nil
}
