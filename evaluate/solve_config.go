package evaluate

import (
	"cmp"
	"fmt"
	"time"

	"lifezero/game"
	"lifezero/rzs"
)

// The solver forms and evaluators a SolveConfig may name.
const (
	AlgoMCTS = "mcts"
	AlgoDFS  = "dfs"
	// AlgoDFPN is depth-first proof-number search with the zone rules
	// (rzs.SolveDFPN).
	AlgoDFPN           = "dfpn"
	EvaluatorHeuristic = "heuristic"
	EvaluatorUniform   = "uniform"
	// EvaluatorLD is rzs.LD, the life-and-death evaluator; EvaluatorLDNoEyes
	// and EvaluatorLDNoPass are its ablations (no eye-space terms; no pass
	// share).
	EvaluatorLD       = "ld"
	EvaluatorLDNoEyes = "ld-noeyes"
	EvaluatorLDNoPass = "ld-nopass"
	// EvaluatorLDB is rzs.LD guided towards unconditional life (the
	// win-in-one probe, regions vital to the crucial blocks and the
	// distance to Benson life); EvaluatorLDProbe and EvaluatorLDVital are
	// its ablations (the probe alone; probe and vital regions without the
	// distance).
	EvaluatorLDB     = "ldb"
	EvaluatorLDProbe = "ld-probe"
	EvaluatorLDVital = "ld-vital"
	// EvaluatorLDBNoShapes is ldb without counting the eyes of small
	// enclosed eye spaces by their shape (rzs.LD.Shapes; an ablation, the
	// ldb of sessions 1-21).
	EvaluatorLDBNoShapes = "ldb-noshapes"
	// EvaluatorLDBNakade is ldb that also counts an enclosed region
	// holding killer stones as an eye (rzs.LD.Nakade; with the FPU
	// reduction off it proves 31 of cho19-dev's 53 at 500,000 nodes,
	// docs/results/tsumego.md, session 24).
	EvaluatorLDBNakade = "ldb-nakade"
)

// DefaultEvaluator is the evaluator of a SolveConfig that names none
// and runs one search of the mcts form: ldb with nakade regions, whose
// default FPU reduction is off (DefaultFPUReductionOf). With a tsumego
// model it proves 31 of cho19-dev's 53 at 500,000 nodes where ldb with
// the reduction proves 28, and 12 of killall7x7's 20 where ldb proves 13
// (docs/results/tsumego.md, sessions 24 and 28): neither nakade nor the
// reduction off makes the 31 without the other.
const DefaultEvaluator = EvaluatorLDBNakade

// DefaultLeadEvaluator is the evaluator of a SolveConfig that names none
// and runs a portfolio, or a depth-first form: ldb, with the FPU
// reduction. A portfolio's first member is its settings as given
// (rzs.PortfolioMembers), and the portfolios measured under the papers'
// protocol (at 300 s on 2 threads, 36 of cho19-dev's 53 with three
// members, sessions 25-27, 37 with four, session 29; killall7x7's 16 of
// 20 with either, sessions 25, 29 and 30) are led by ldb with the
// reduction, while the one search's ldb-nakade without it orders the
// member that drops the depth discount (DefaultUndiscountedEvaluator); a
// portfolio led by ldb-nakade without the reduction was run on four
// problems only (session 24). The depth-first forms were measured with
// ldb (docs/results/rzs-forms.md).
const DefaultLeadEvaluator = EvaluatorLDB

// defaultEvaluator is the evaluator of a config that names none.
func (c SolveConfig) defaultEvaluator() string {
	if c.Portfolio > 1 || (c.Algo != AlgoMCTS && c.Algo != "") {
		return DefaultLeadEvaluator
	}
	return DefaultEvaluator
}

// DefaultPortfolioEvaluator is the evaluator of a portfolio's members
// after the first when the first searches with ldb, with one model and no
// network, and PortfolioEvaluator names none, except those that drop the
// first's depth discount (DefaultUndiscountedEvaluator): the ldb without
// eye shapes. Under the papers' protocol (300 s, 2 threads, a pair) it
// proves 34 of cho19-dev's 53 where the pair that differs only in its
// settings proves 33, losing none, and killall7x7's 16/20 as that pair
// does: the problems either pair leaves unproven were all run with both
// (docs/results/tsumego.md, sessions 23 and 24). A second evaluator gives
// the members searches that differ in more than their settings; a second
// model (PortfolioRanker) already does, and was measured without one.
const DefaultPortfolioEvaluator = EvaluatorLDBNoShapes

// DefaultUndiscountedEvaluator is, where DefaultPortfolioEvaluator
// applies, the evaluator of the members that drop the depth discount the
// first member has (with the default settings, rzs.PortfolioMembers'
// members 3 and 4): one search's evaluator, DefaultEvaluator. At 500,000
// nodes the one search's defaults without the discount prove cho19-dev
// 029 and 085 (no paper proves 085), which the defaults do not (session
// 28's ablation), while ldb-noshapes without it, the FPU reduction on,
// proved none of the four the first three members leave under the
// papers' protocol (session 25) and not 085 (session 28). With it as
// member 3, a portfolio of four proves 37 of cho19-dev's 53 under the
// protocol, 085 added and none of the three members' 36 lost (session
// 29), and killall7x7's 16 of 20 as three members do (session 30). The
// evidence is for member 3, which drops the FPU reduction with the
// discount as the one search does; member 4 (safety and the proof bonus
// off too) follows the same rule unmeasured, as no portfolio of five was
// run under the protocol (its search alone proves none of the 16 that
// four members leave, at 500,000 nodes, session 30).
const DefaultUndiscountedEvaluator = DefaultEvaluator

// DefaultDepthDiscount is the mcts form's Faster-to-Life discount per ply
// (rzs.Options.DepthDiscount) when a SolveConfig names none. It was chosen
// by the count of problems proven, never by a problem's answer
// (docs/results/tsumego.md, session 13): cho19-dev at 50,000 nodes with
// ldb proves 13, 13, 15, 17, 17, 18 and 16 of 53 at 1 (none), 0.97, 0.95,
// 0.92, 0.9, 0.88 and 0.84; killall7x7 at 100,000 nodes with a tsumego
// model 4, 5, 5 and 6 of 20 at 1, 0.95, 0.9 and 0.85. 0.9 sits in the
// middle of the plateau of both.
const DefaultDepthDiscount = 0.9

// DefaultFPUReduction is the mcts form's first-play-urgency reduction
// (rzs.Options.FPUReduction) when a SolveConfig names none and its
// evaluator is not ldb-nakade (DefaultFPUReductionOf), or it runs a
// portfolio. With a tsumego
// model and the depth discount, killall7x7 at 100,000 nodes proves 5, 6,
// 6 and 5 of 20 with the reduction at the living side's nodes only at
// 0.1, 0.3, 0.6 and 1.0, and 6 with 0.3 at every node (fewer nodes than
// at the living side's only); cho19-dev at 50,000 nodes 21 of 53 at 0.3
// and 20 at 0.6 (docs/results/tsumego.md, session 13).
const DefaultFPUReduction = 0.3

// defaultFPUReduction is the FPU reduction of a config that names none:
// DefaultFPUReduction for a portfolio, whose members turn it off one by
// one (rzs.PortfolioMembers: a lead without it would leave one member
// fewer), else the evaluator's. With a network the built-in evaluator
// that shapes the values is NetWith's, if any.
func (c SolveConfig) defaultFPUReduction() float64 {
	if c.Portfolio > 1 {
		return DefaultFPUReduction
	}
	if c.Net != nil {
		return DefaultFPUReductionOf(c.NetWith)
	}
	return DefaultFPUReductionOf(c.Evaluator)
}

// DefaultFPUReductionOf is the FPU reduction of one search that names
// none, in SolveConfig's spelling (negative: none): off with ldb-nakade,
// DefaultFPUReduction with the others. The two settings were measured
// together: at 500,000 nodes on cho19-dev, ldb-nakade proves 28 with the
// reduction and 31 without it, ldb 28 with it and 27 without it
// (docs/results/tsumego.md, session 24). Nakade regions make the values
// of a node's moves differ where they were flat (a killer stone inside a
// region no longer takes an eye away), and flat values are what the
// reduction is for.
func DefaultFPUReductionOf(evaluator string) float64 {
	if evaluator == EvaluatorLDBNakade {
		return -1
	}
	return DefaultFPUReduction
}

// DefaultProofBonus is the mcts form's proof-number bonus
// (rzs.Options.ProofBonus) when a SolveConfig names none. It was chosen
// over 0.03, 0.1 and 0.3 by the count of problems proven
// (docs/results/tsumego.md, session 16), never from a problem's answer.
const DefaultProofBonus = 0.1

// DefaultSolveBudget is the paper's limit of 500,000 nodes per problem, also
// rzs's default.
const DefaultSolveBudget = 500000

// SolveConfig is how a benchmark solves its problems.
type SolveConfig struct {
	Algo      string        // AlgoMCTS (also for ""), AlgoDFS or AlgoDFPN
	Budget    int           // most nodes per problem; 0: DefaultSolveBudget
	NoRZ      bool          // turn relevance zones off
	NoTT      bool          // turn the transposition table off
	Evaluator string        // one of EvaluatorNames; "" is DefaultEvaluator, or DefaultLeadEvaluator for a portfolio or a depth-first form
	Timeout   time.Duration // per problem; 0: none
	// RZT is the relevance-zone pattern table: RZTTree (the radix tree of
	// paper 000), RZTLinear (its linear baseline) or RZTNone. "" means
	// RZTTree for the mcts form (it proves more problems in the same
	// budget: docs/results/rzs.md) and RZTNone for the others, which
	// cannot use it.
	RZT string
	// RZTNoTimestamps compares every entry at every lookup (the NT
	// variants); RZTSymmetric also matches the problem's symmetries.
	RZTNoTimestamps, RZTSymmetric bool
	// RZTLoad names a directory of saved pattern databases (one dataset
	// per subdirectory or link to one, or the directory itself)
	// preloaded into every problem's table: those saved under the
	// problem's rules (its fingerprint: goals, ko rules, region, crucial
	// stones), its own and other problems' alike, and not the others.
	// RZTSave names a directory where each problem's table is saved as
	// <id>/, for later runs to preload.
	RZTLoad, RZTSave string
	// Net, when set, orders the search in place of Evaluator (the network
	// evaluator of package neteval; the caller loads it). NetCheck, when
	// set, is asked before each problem whether Net fits it. NetName is
	// what the results record as the evaluator when Net is set (for
	// example "net-ftl"); "" records "net".
	Net      rzs.Evaluator
	NetCheck func(*game.Problem) error
	NetName  string
	// NetWith, when set with Net, names a built-in evaluator that orders
	// the search together with Net (rzs.Mixed): NetMix says what Net
	// gives, NetBoth (its priors multiplied in and its value), NetPriors or
	// NetValue. The results record the evaluator as "<NetWith>x<NetName>".
	NetWith string
	NetMix  string
	// Ranker, when set, reweights the evaluator's move priors by a learned
	// move ranker (rzs.Learned; for example a model of package tsumego,
	// loaded by the caller); RankerName names it in the results, which
	// record the evaluator as "<evaluator>+<RankerName>" (with
	// PortfolioRanker, "<evaluator>+<RankerName>/<PortfolioRankerName>").
	Ranker     rzs.MoveRanker
	RankerName string
	// PortfolioRanker, when set with Ranker and a portfolio, is a second
	// learned ranker: the members alternate between the two models (member
	// k reweights by Ranker when k is even, by PortfolioRanker when odd)
	// and take the portfolio's settings in pairs (members 2j and 2j+1 both
	// search with rzs.PortfolioMembers' setting j). Two models prove
	// different problems at the same settings (docs/results/tsumego.md,
	// sessions 20 and 22), and their mean proves neither's extra, so the
	// diversity has to come from separate searches; but under the
	// papers' protocol a pair of two models proved fewer than a pair of
	// two settings (session 22), so one model is the default.
	// PortfolioRankerName
	// names it in a proof's settings (Row.ProvedBy), as RankerName names
	// Ranker there.
	PortfolioRanker     rzs.MoveRanker
	PortfolioRankerName string
	// PortfolioEvaluator, when set with a portfolio and no network, is the
	// built-in evaluator of every member after the first (reweighted by
	// the member's model as the first member's is): a second evaluator
	// gives the members searches that differ in more than their settings.
	// A comma-separated list names one per member after the first, by
	// member index (after rzs.PortfolioMembers skips the settings already
	// off, and after the pairing of two models; OnlineMember's twin takes
	// none, searching with Evaluator), since a setting may pay
	// with one evaluator and not another (the discount off with
	// ldb-nakade, session 28). Members still differ by their settings:
	// two with the same settings and two evaluators are not allowed.
	// Proofs name it in their settings (Row.ProvedBy), and the results
	// record the evaluator as "<Evaluator>/<PortfolioEvaluator>". Empty
	// means, when Evaluator is ldb with one model and no network,
	// DefaultPortfolioEvaluator, but DefaultUndiscountedEvaluator for the
	// members that drop the first's depth discount
	// (defaultMemberEvaluators); else Evaluator. Naming Evaluator gives
	// every member the same evaluator.
	PortfolioEvaluator string
	// Workers is how many problems are solved at once, each on one
	// goroutine; 0 means 1. More than one makes the reported seconds
	// compete for the CPUs.
	Workers int
	// Threads is how many goroutines search each problem's one tree (the
	// mcts form; rzs.Options.Threads); 0 means 1.
	Threads int
	// Portfolio, above 1, is how many searches of each problem run at once
	// (rzs.SolvePortfolio, the members of rzs.PortfolioMembers), Threads
	// split evenly among them (0 Threads: one each). With fewer Threads
	// than members, each member searches on one thread and they take
	// turns on Threads of them (rzs.Slots), so the portfolio never uses
	// more cores than Threads. The first proof stops the others. The mcts
	// form only; 0 means 1, no portfolio.
	Portfolio int
	// PortfolioShare gives a portfolio's members one pattern table
	// (rzs.LockedTable) instead of one each, so that a win one member
	// proves and stores proves the same pattern in the others' trees.
	// The members' results then depend on their timing.
	PortfolioShare bool
	// Batch is how many leaves the mcts form's one thread hands its
	// evaluator at once (rzs.Options.Batch; a network evaluates them in
	// one forward pass); 0 means 1.
	Batch int
	// DepthDiscount is rzs.Options.DepthDiscount, the mcts form's
	// Faster-to-Life discount of a leaf's value per ply of depth: 0 means
	// DefaultDepthDiscount, 1 none.
	DepthDiscount float64
	// FPUReduction is rzs.Options.FPUReduction, the mcts form's lowered
	// first-play urgency of unvisited children: negative means none, 0
	// DefaultFPUReduction for a portfolio, else the evaluator's default
	// (DefaultFPUReductionOf).
	FPUReduction float64
	// NoSafety turns off rzs.Options.Safety, the judge's recognition of
	// life under alternating play (on by default).
	NoSafety bool
	// ProofBonus is rzs.Options.ProofBonus, the mcts form's preference
	// for the living moves that leave the killer the fewest moves to
	// refute: negative means none, 0 DefaultProofBonus.
	ProofBonus float64
	// Playouts, when positive, blends into the value the share of this
	// many Monte-Carlo playouts that the living side wins (rzs.Playouts),
	// with weight PlayoutWeight (0: DefaultPlayoutWeight), in every
	// member of a portfolio or in those PlayoutMembers lists (their
	// indices, comma-separated; online_member's twin is the last).
	Playouts       int
	PlayoutWeight  float64
	PlayoutMembers string
	// Online is rzs.Options.Online: the search learns corrections of the
	// features model (Ranker) from its own proofs as it goes. It needs a
	// features model.
	Online bool
	// OnlineShare, with Online in a portfolio, gives the members that
	// rank by the same model one learner (rzs.Options.Learner) instead of
	// one each, so that every member's priors follow what any member has
	// proven. The members' results then depend on their timing.
	OnlineShare bool
	// OnlineMember makes a portfolio's last member a twin of the first
	// that learns as it searches (rzs.Options.Online), in the place of a
	// member with settings of its own: the others keep the priors of the
	// model as it was trained. Online learning proves some problems far
	// sooner, but with every member learning the portfolio lost 4 of the
	// 37 it proves without (docs/results/tsumego.md, session 32, with a
	// learner each or one shared, which makes the members alike); one
	// learner beside members that do not learn keeps the others'
	// searches as they were. The twin has the lead's defaults, those of a
	// portfolio (ldb, the FPU reduction on), even with two members. It
	// needs a features model that can learn, and one model
	// (PortfolioRanker pairs the members by model).
	OnlineMember bool
	// MaxMemory bounds the memory of one solve in bytes (rzs.Options);
	// 0 means rzs.DefaultMaxMemory(Workers), a share of physical memory,
	// and a negative value no bound.
	MaxMemory int64
}

// offToZero is the solver's value of a setting withDefaults filled in:
// 0 for none.
func offToZero(v float64) float64 { return max(v, 0) }

// withDefaults fills the zero values in.
func (c SolveConfig) withDefaults() SolveConfig {
	if c.Algo == "" {
		c.Algo = AlgoMCTS
	}
	if c.Evaluator == "" {
		c.Evaluator = c.defaultEvaluator()
	}
	if c.Budget == 0 {
		c.Budget = DefaultSolveBudget
	}
	if c.Workers == 0 {
		c.Workers = 1
	}
	if c.DepthDiscount == 0 {
		c.DepthDiscount = DefaultDepthDiscount
	}
	// FPUReduction and ProofBonus: 0 means the default and a negative
	// value none. A negative value stays negative, so that filling the
	// defaults in twice (a config that SolveProblems has filled in reaches
	// SolveRowOf, which fills it in again) cannot turn a setting the user
	// turned off back on; options gives the solver 0 for it (offToZero).
	c.FPUReduction = cmp.Or(c.FPUReduction, c.defaultFPUReduction())
	c.ProofBonus = cmp.Or(c.ProofBonus, DefaultProofBonus)
	if c.NetMix == "" {
		c.NetMix = NetBoth
	}
	if c.RZT == "" {
		c.RZT = RZTNone
		if c.Algo == AlgoMCTS {
			c.RZT = RZTTree
		}
	}
	if c.MaxMemory == 0 {
		c.MaxMemory = rzs.DefaultMaxMemory(c.Workers)
	}
	if c.PortfolioEvaluator == "" && c.settingMembers() > 1 && c.Net == nil && c.PortfolioRanker == nil && c.Evaluator == EvaluatorLDB {
		// After the settings' defaults: the members' evaluators follow
		// their settings.
		c.PortfolioEvaluator = c.defaultMemberEvaluators()
	}
	if c.Net != nil {
		// The results must say which evaluator ordered the search: a
		// network run recorded as "heuristic" would be misread.
		c.Evaluator = c.NetName
		if c.Evaluator == "" {
			c.Evaluator = "net"
		}
		if c.NetWith != "" {
			c.Evaluator = c.NetWith + "x" + c.Evaluator
			if c.NetMix != NetBoth {
				c.Evaluator += "-" + c.NetMix
			}
		}
	}
	return c
}

// validateLoaded is Validate for a config about to solve, its network
// loaded: it also catches net_with without a network, which Validate
// cannot, as the network is loaded after the options are read.
func (c SolveConfig) validateLoaded() error {
	if err := c.Validate(); err != nil {
		return err
	}
	if c.NetWith != "" && c.Net == nil {
		return &SolveConfigError{"net_with", "names what goes with a network, and no network was given"}
	}
	return nil
}

// What a network gives when it orders the search with a built-in
// evaluator (SolveConfig.NetMix).
const (
	NetBoth   = "both"
	NetPriors = "priors"
	NetValue  = "value"
)

// recordedEvaluator is the evaluator as the results name it.
func (c SolveConfig) recordedEvaluator() string {
	ev := c.Evaluator
	if c.PortfolioEvaluator != "" {
		ev += "/" + c.PortfolioEvaluator
	}
	if c.Playouts > 0 {
		ev += "+" + c.playoutsName()
		if c.PlayoutMembers != "" {
			ev += "(members " + c.PlayoutMembers + ")"
		}
	}
	if c.Ranker == nil {
		return ev
	}
	name := c.RankerName
	if name == "" {
		name = "ranker"
	}
	if c.PortfolioRanker != nil {
		name += "/" + c.memberRankerName(1)
	}
	return ev + "+" + name
}

// recordedSearch is what a result records as its search's settings
// (SolveRow.Search): the settings of the one search, or of a portfolio's
// first member, with the portfolio's sharing of a learner or its learning
// twin, which the config's options (c.options) do not show.
func (c SolveConfig) recordedSearch() string {
	s := searchSettings(c.Algo, c.options())
	if c.OnlineShare {
		s += " online_share=true"
	}
	if c.OnlineMember {
		s += " online_member=true"
	}
	return s
}

// SolverOptions returns the options of package rzs that a solve under c
// runs with, c's defaults filled in.
func (c SolveConfig) SolverOptions() rzs.Options { return c.withDefaults().options() }

func (c SolveConfig) options() rzs.Options {
	o := rzs.Options{Budget: c.Budget, NoRZ: c.NoRZ, NoTT: c.NoTT, Timeout: c.Timeout, Evaluator: withRanker(c.baseEvaluator(), c.Ranker),
		Threads: c.Threads, Batch: c.Batch, DepthDiscount: c.DepthDiscount, FPUReduction: offToZero(c.FPUReduction),
		Safety: !c.NoSafety, ProofBonus: offToZero(c.ProofBonus), Online: c.Online}
	if c.MaxMemory > 0 {
		o.MaxMemory = c.MaxMemory
	}
	return o
}

// baseEvaluator is the evaluator a learned ranker reweights: the built-in
// one, the network, or the two mixed, with the playouts if any.
func (c SolveConfig) baseEvaluator() rzs.Evaluator { return c.withPlayouts(c.orderingEvaluator()) }

// orderingEvaluator is baseEvaluator without the playouts.
func (c SolveConfig) orderingEvaluator() rzs.Evaluator {
	if c.Net != nil {
		if c.NetWith != "" {
			return rzs.Mixed{Base: builtinEvaluator(c.NetWith), Other: c.Net,
				Priors: c.NetMix != NetValue, Value: c.NetMix != NetPriors}
		}
		return c.Net
	}
	if ev := builtinEvaluator(c.Evaluator); ev != nil {
		return ev
	}
	return rzs.Heuristic{}
}

// DefaultPlayoutWeight is the playouts' share of the value when a
// SolveConfig with Playouts names none.
const DefaultPlayoutWeight = 0.5

// playoutsName is how records name the playouts: playouts<N>x<weight>.
func (c SolveConfig) playoutsName() string {
	return fmt.Sprintf("playouts%dx%g", c.Playouts, cmp.Or(c.PlayoutWeight, DefaultPlayoutWeight))
}

// withPlayouts returns ev with the config's playouts blended into its
// value (ev itself without playouts).
func (c SolveConfig) withPlayouts(ev rzs.Evaluator) rzs.Evaluator {
	if c.Playouts <= 0 {
		return ev
	}
	return rzs.Playouts{Inner: ev, N: c.Playouts, Weight: float32(cmp.Or(c.PlayoutWeight, DefaultPlayoutWeight))}
}

// withRanker returns base with its move priors reweighted by r (base itself
// when r is nil).
func withRanker(base rzs.Evaluator, r rzs.MoveRanker) rzs.Evaluator {
	if r == nil {
		return base
	}
	return rzs.Learned{Base: base, Ranker: r}
}

// portfolioSettings is how many distinct search settings a portfolio of
// c.Portfolio members needs: one each, or one per pair of members when
// two models alternate (PortfolioRanker).
func (c SolveConfig) portfolioSettings() int {
	if c.PortfolioRanker != nil {
		return (c.Portfolio + 1) / 2
	}
	return c.settingMembers()
}

// settingMembers is how many of the portfolio's members search with
// settings of their own: all but OnlineMember's twin of the first.
func (c SolveConfig) settingMembers() int {
	if c.OnlineMember {
		return c.Portfolio - 1
	}
	return c.Portfolio
}

// membersWanted says how large a portfolio must be to have n members
// with settings of their own.
func (c SolveConfig) membersWanted(n int) string {
	if c.OnlineMember {
		return fmt.Sprintf("a portfolio of %d or more with online_member", n+1)
	}
	return fmt.Sprintf("a portfolio of %d or more", n)
}

// twinNote is what an error about the portfolio's members says of
// OnlineMember's twin, which searches with the first member's evaluator.
func (c SolveConfig) twinNote() string {
	if c.OnlineMember {
		return ", the last of them online_member's twin of the first, which searches with the first's evaluator"
	}
	return ""
}

// isOnlineMember reports whether member k is OnlineMember's learning twin
// of the first.
func (c SolveConfig) isOnlineMember(k int) bool {
	return c.OnlineMember && k == c.Portfolio-1
}
