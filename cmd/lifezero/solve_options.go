package main

import (
	"errors"
	"flag"
	"fmt"
	"time"

	"lifezero/evaluate"
	"lifezero/internal/optflags"
	"lifezero/neteval"
	"lifezero/pipelines"
	"lifezero/rzs"
)

// solveOptions are the solver's settings, one type for the solve stage's
// params and the flags of "lifezero solve": a param's yaml name is its
// flag's name with '-' for '_' (rzt_nt, --rzt-nt), its help is the flag's
// usage, and both go through config for defaults and validation. What the
// stage takes from its inputs and outputs (a network, a tsumego model, the
// output directory) the command takes as flags of its own (solveFlags).
//
// The JSON form is the stage's input hash: MaxMemory, Threads and the
// table variants are left out when empty (omitempty), so results cached
// before they existed stay valid; RZT is hashed even when empty, since its
// default turned the table on and results cached before that must not be
// taken for today's.
type solveOptions struct {
	Budget          int      `yaml:"budget" help:"most nodes (MCTS simulations or depth-first visits) per problem; the papers' limit is 500000"`
	Algo            string   `yaml:"algo" help:"solver form: mcts, dfs or dfpn"`
	RZ              bool     `yaml:"rz" help:"use relevance zones (false: every defence must be refuted)"`
	TT              bool     `yaml:"tt" help:"use the transposition table"`
	Evaluator       string   `yaml:"evaluator" help:"move ordering: ldb (life and death guided to unconditional life), ldb-noshapes, ldb-nakade (ldb that counts a region holding killer stones as an eye), ld-probe, ld-vital, ld, ld-noeyes, ld-nopass, heuristic or uniform (empty: ldb-nakade for one search of the mcts form, ldb for a portfolio or a depth-first form)"`
	Timeout         string   `yaml:"timeout" help:"stop a problem after this long, a Go duration such as 5m (empty or 0: no limit)"`
	Workers         int      `yaml:"workers" help:"problems solved at once (timings compete for CPUs)"`
	Threads         int      `yaml:"threads" json:",omitempty" help:"goroutines searching each problem's tree (mcts form; 0 or 1: one; the papers' protocol uses 2)"`
	Portfolio       int      `yaml:"portfolio" json:",omitempty" help:"searches of each problem run at once, each its own tree and search order (the settings as given, then fpu_reduction off, fpu_reduction, safety and proof_bonus off, fpu_reduction and depth_discount off, all four off; at most 5, and one more with online_member), the threads split evenly among them (fewer threads than searches: the searches take turns on them); the first proof stops the rest (mcts form; 0 or 1: one search)"`
	PortfolioShare  bool     `yaml:"portfolio_share" json:",omitempty" help:"the portfolio's members share one pattern table, so a win one proves and stores proves the same pattern in the others' trees (results then depend on the members' timing)"`
	PortfolioEval   string   `yaml:"portfolio_evaluator" json:",omitempty" help:"the built-in evaluator of the portfolio's members after the first, or a comma-separated list of one per member after the first, by member index, online_member's twin taking none (see evaluator; empty: when evaluator is ldb with one features model and no network, ldb-nakade for the members that drop the first's depth discount and ldb-noshapes for the others, else evaluator), so that they differ in more than their settings"`
	Batch           int      `yaml:"batch" json:",omitempty" help:"leaves the mcts form's one thread evaluates at once under virtual loss (0 or 1: one); a network (--net, alone or with --net-with) evaluates them in one forward pass"`
	RZT             string   `yaml:"rzt" json:"rzt" help:"relevance-zone pattern table: tree (paper 000's radix tree; the mcts form's default), linear or none"`
	RZTNoTimestamps bool     `yaml:"rzt_nt" json:",omitempty" help:"pattern table without timestamps (compare every entry at every lookup)"`
	RZTSymmetric    bool     `yaml:"rzt_sym" json:",omitempty" help:"pattern table also matches the problem's board symmetries"`
	NetMode         string   `yaml:"net_mode" help:"with a network: ftl (the d-win head at the problem's ftl_d) or value (the plain value head)"`
	NetWith         string   `yaml:"net_with" json:",omitempty" help:"with a network: order the search by it together with this built-in evaluator (see evaluator; empty: the network alone)"`
	NetMix          string   `yaml:"net_mix" json:",omitempty" help:"with net_with: what the network adds, both (its move priors multiplied in, and its value), priors or value"`
	DepthDiscount   float64  `yaml:"depth_discount" help:"Faster to Life without a d-win network: an unproven leaf's value for the living side is multiplied by this per ply of depth, so the mcts form prefers quick lives (1: off)"`
	FPUReduction    *float64 `yaml:"fpu_reduction" json:",omitempty" help:"the mcts form's unvisited children score as their parent's value less this times the square root of the visited children's prior mass (0: off; unset: 0.3 for a portfolio, else off with ldb-nakade and 0.3 with the other evaluators, with a network net_with's)"`
	ProofBonus      float64  `yaml:"proof_bonus" help:"proof numbers in the mcts form: it favours, at the living side's nodes, the moves after which the killer has the fewest moves left to refute, by this times fewest/left (0: off)"`
	Playouts        int      `yaml:"playouts" json:",omitempty" help:"Monte-Carlo playouts per evaluated position: the value becomes the evaluator's blended with the share of playouts (random play in the region that captures what it can and fills no eye of its own) the living side wins (0: none)"`
	PlayoutWeight   float64  `yaml:"playout_weight" json:",omitempty" help:"with playouts: their share of the value, in (0, 1] (0: 0.5)"`
	PlayoutMembers  string   `yaml:"playout_members" json:",omitempty" help:"with playouts in a portfolio: the members that play out, their indices comma-separated (online_member's twin is the last; empty: every member)"`
	Safety          bool     `yaml:"safety" help:"the judge also proves life under alternating play: a group whose small enclosed eye spaces give it Benson's life whatever the killer does, found by a small local search (off: Benson's algorithm alone)"`
	Online          bool     `yaml:"online" json:",omitempty" help:"the mcts form learns from its own proofs as it goes: where a move won after the moves tried first had lost, the features model's priors of later nodes are corrected towards it (needs a features model)"`
	OnlineShare     bool     `yaml:"online_share" json:",omitempty" help:"with online in a portfolio: the members learn into one learner, so each member's priors follow what any of them has proven (results then depend on the members' timing)"`
	OnlineMember    bool     `yaml:"online_member" json:",omitempty" help:"in a portfolio: its last member is a twin of the first that learns online from its own proofs (needs a features model that can learn), in the place of a member with settings of its own; the others do not learn"`
	MaxMemory       string   `yaml:"max_memory" json:",omitempty" help:"bound on each solve's memory such as 500MB or 4GiB, 0 for none; the solver reclaims near it and stops the problem unproven when nothing is left to reclaim (empty: 60% of physical memory divided by workers)"`
}

// offAtZero turns a param where 0 means off into SolveConfig's spelling,
// where 0 is the default and a negative value off; a negative param is
// refused.
func offAtZero(key string, v float64) (float64, error) {
	switch {
	case v < 0:
		return v, &pipelines.ParamError{Key: key, Msg: fmt.Sprintf("%v: must not be negative (0 turns it off)", v)}
	case v == 0:
		return -1, nil
	}
	return v, nil
}

// defaultSolveOptions are the defaults of both the stage and the command.
func defaultSolveOptions() solveOptions {
	return solveOptions{Budget: evaluate.DefaultSolveBudget, Algo: evaluate.AlgoMCTS, RZ: true, TT: true,
		Workers: 1, NetMode: neteval.FTL.String(), DepthDiscount: evaluate.DefaultDepthDiscount,
		ProofBonus: evaluate.DefaultProofBonus, Safety: true}
}

// Validate catches bad params when the pipeline is loaded, at their line.
func (o *solveOptions) Validate() error {
	_, err := o.config()
	return err
}

// config turns the options into a solve config; errors are ParamErrors
// naming the param (flagError names the flag instead).
func (o *solveOptions) config() (evaluate.SolveConfig, error) {
	cfg := evaluate.SolveConfig{Algo: o.Algo, Budget: o.Budget, NoRZ: !o.RZ, NoTT: !o.TT, Evaluator: o.Evaluator, Workers: o.Workers,
		Threads: o.Threads, RZT: o.RZT, RZTNoTimestamps: o.RZTNoTimestamps, RZTSymmetric: o.RZTSymmetric,
		NetWith: o.NetWith, NetMix: o.NetMix, Batch: o.Batch, Portfolio: o.Portfolio, PortfolioShare: o.PortfolioShare, PortfolioEvaluator: o.PortfolioEval, DepthDiscount: o.DepthDiscount,
		NoSafety: !o.Safety, ProofBonus: o.ProofBonus, Online: o.Online, OnlineShare: o.OnlineShare, OnlineMember: o.OnlineMember,
		Playouts: o.Playouts, PlayoutWeight: o.PlayoutWeight, PlayoutMembers: o.PlayoutMembers}
	// Zero is no budget and no worker here, where SolveConfig reads it as
	// its default.
	if o.Budget <= 0 {
		return cfg, &pipelines.ParamError{Key: "budget", Msg: fmt.Sprintf("%d: must be positive", o.Budget)}
	}
	// Zero is SolveConfig's default discount, so it is refused here;
	// cfg.Validate refuses the rest of what lies outside (0, 1].
	if o.DepthDiscount == 0 {
		return cfg, &pipelines.ParamError{Key: "depth_discount", Msg: "0: want a factor in (0, 1]; 1 turns the discount off"}
	}
	var err error
	// Unset, it is SolveConfig's default (0.3 for a portfolio, else the
	// evaluator's: evaluate.DefaultFPUReductionOf), read from its 0.
	if o.FPUReduction != nil {
		if cfg.FPUReduction, err = offAtZero("fpu_reduction", *o.FPUReduction); err != nil {
			return cfg, err
		}
	}
	if cfg.ProofBonus, err = offAtZero("proof_bonus", o.ProofBonus); err != nil {
		return cfg, err
	}
	if o.Workers <= 0 {
		return cfg, &pipelines.ParamError{Key: "workers", Msg: fmt.Sprintf("%d: must be positive", o.Workers)}
	}
	if _, err := neteval.ParseMode(o.NetMode); err != nil {
		return cfg, &pipelines.ParamError{Key: "net_mode", Msg: err.Error()}
	}
	switch o.MaxMemory {
	case "":
	case "0", "none":
		cfg.MaxMemory = -1
	default:
		n, err := rzs.ParseMemorySize(o.MaxMemory)
		if err != nil {
			return cfg, &pipelines.ParamError{Key: "max_memory", Msg: err.Error()}
		}
		cfg.MaxMemory = n
	}
	if o.Timeout != "" && o.Timeout != "0" {
		d, err := time.ParseDuration(o.Timeout)
		// 0s means no limit, as "0" does (the flag was a time.Duration).
		if err != nil || d < 0 {
			return cfg, &pipelines.ParamError{Key: "timeout", Msg: fmt.Sprintf("%q: want a positive Go duration such as 30s or 5m", o.Timeout)}
		}
		cfg.Timeout = d
	}
	if err := paramError(cfg.Validate()); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// paramError turns a SolveConfig check's *evaluate.SolveConfigError into
// the ParamError of its param; other errors pass as they are.
func paramError(err error) error {
	var ce *evaluate.SolveConfigError
	if errors.As(err, &ce) {
		return &pipelines.ParamError{Key: ce.Field, Msg: ce.Msg}
	}
	return err
}

// bindFlags registers a flag for every option on fs (optflags.Bind), with
// o's values as defaults; rz and tt, on by default, are turned off by
// --no-rz and --no-tt.
func (o *solveOptions) bindFlags(fs *flag.FlagSet) error { return optflags.Bind(fs, o) }

// flagName is the flag of a param.
func flagName(param string) string { return optflags.FlagName(param) }

// flagError turns config's ParamError into a usage error naming the flag.
func flagError(err error) error {
	if msg, ok := optflags.Error(err); ok {
		return usagef("%s", msg)
	}
	return err
}
