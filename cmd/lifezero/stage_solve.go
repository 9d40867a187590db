package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"lifezero/evaluate"
	"lifezero/neteval"
	"lifezero/pipelines"
	"lifezero/rzs"
	"lifezero/train"
	"lifezero/tsumego"
)

// solveParams are the solve stage's params. MaxMemory is left out of the
// input hash when empty (json omitempty): the bound changes no result it
// does not stop, so earlier runs stay valid.
type solveParams struct {
	Budget    int    `yaml:"budget" help:"most nodes (MCTS simulations or depth-first visits) per problem; the papers' limit is 500000"`
	Algo      string `yaml:"algo" help:"solver form: mcts, dfs or dfpn"`
	RZ        bool   `yaml:"rz" help:"use relevance zones (false: every defence must be refuted)"`
	TT        bool   `yaml:"tt" help:"use the transposition table"`
	Evaluator string `yaml:"evaluator" help:"move ordering: ldb (life and death guided to unconditional life), ld-probe, ld-vital, ld, ld-noeyes, ld-nopass, heuristic or uniform"`
	Timeout   string `yaml:"timeout" help:"stop a problem after this long, a Go duration such as 5m (empty: no limit)"`
	Workers   int    `yaml:"workers" help:"problems solved at once (timings compete for CPUs)"`
	Threads   int    `yaml:"threads" json:",omitempty" help:"goroutines searching each problem's tree (mcts form; 0 or 1: one)"`
	// RZT is hashed even when empty: its default turned the table on, so
	// results cached before that must not be taken for today's.
	RZT       string `yaml:"rzt" json:"rzt" help:"relevance-zone pattern table: tree (the mcts form's default), linear or none"`
	NetMode   string `yaml:"net_mode" help:"with a network input: ftl (the d-win head at the problem's ftl_d) or value (the plain value head)"`
	MaxMemory string `yaml:"max_memory" json:",omitempty" help:"bound on each solve's memory such as 500MB or 4GiB, 0 for none (empty: 60% of physical memory divided by workers)"`
}

// Validate catches bad params when the pipeline is loaded, at their line.
func (p *solveParams) Validate() error {
	_, err := p.config()
	return err
}

// config turns the params into a solve config; errors are ParamErrors.
func (p *solveParams) config() (evaluate.SolveConfig, error) {
	cfg := evaluate.SolveConfig{Algo: p.Algo, Budget: p.Budget, NoRZ: !p.RZ, NoTT: !p.TT, Evaluator: p.Evaluator, Workers: p.Workers,
		Threads: p.Threads, RZT: p.RZT}
	if p.Budget <= 0 {
		return cfg, &pipelines.ParamError{Key: "budget", Msg: fmt.Sprintf("%d: must be positive", p.Budget)}
	}
	if p.Workers <= 0 {
		return cfg, &pipelines.ParamError{Key: "workers", Msg: fmt.Sprintf("%d: must be positive", p.Workers)}
	}
	if _, err := neteval.ParseMode(p.NetMode); err != nil {
		return cfg, &pipelines.ParamError{Key: "net_mode", Msg: err.Error()}
	}
	switch p.MaxMemory {
	case "":
	case "0", "none":
		cfg.MaxMemory = -1
	default:
		n, err := rzs.ParseMemorySize(p.MaxMemory)
		if err != nil {
			return cfg, &pipelines.ParamError{Key: "max_memory", Msg: err.Error()}
		}
		cfg.MaxMemory = n
	}
	if p.Timeout != "" {
		d, err := time.ParseDuration(p.Timeout)
		if err != nil || d <= 0 {
			return cfg, &pipelines.ParamError{Key: "timeout", Msg: fmt.Sprintf("%q: want a positive Go duration such as 30s or 5m", p.Timeout)}
		}
		cfg.Timeout = d
	}
	var ce *evaluate.SolveConfigError
	if err := cfg.Validate(); errors.As(err, &ce) {
		return cfg, &pipelines.ParamError{Key: ce.Field, Msg: ce.Msg}
	} else if err != nil {
		return cfg, err
	}
	return cfg, nil
}

func solveKind() pipelines.Kind {
	return pipelines.Kind{
		Name: "solve",
		Doc: "Solves the L&D problems of its path inputs (problem directories or .json/.sgf files) by " +
			"relevance-zone based search, ordered by the newest network input (a train stage) when there is " +
			"one and by the evaluator param otherwise, its move priors reweighted by a tsumego-train input " +
			"when there is one, and writes a solve-results dataset (per problem: result from the " +
			"living side's view, first move, nodes, seconds, RZ size, TT and table hits, settings, the " +
			"papers' node counts) with a report section: per problem set a table beside the papers' " +
			"columns, solved counts, and plots of our nodes against the papers' and of solved counts.",
		Version: 1,
		Params: solveParams{Budget: evaluate.DefaultSolveBudget, Algo: evaluate.AlgoMCTS, RZ: true, TT: true,
			Evaluator: evaluate.DefaultEvaluator, Workers: 1, NetMode: neteval.FTL.String()},
		CheckInputs: solveInputs,
		Run:         runSolve,
	}
}

func runSolve(ctx context.Context, env *pipelines.Env) error {
	p, err := pipelines.ParamsAs[solveParams](env)
	if err != nil {
		return err
	}
	cfg, err := p.config()
	if err != nil {
		return err
	}
	paths, netIn, rankerIn, err := splitSolveInputs(env.Inputs)
	if err != nil {
		return err
	}
	if rankerIn != nil {
		r, _, err := tsumego.LoadRanker(rankerIn.Path)
		if err != nil {
			return fmt.Errorf("input stage:%s: %w", rankerIn.Stage, err)
		}
		cfg.Ranker, cfg.RankerName = r, "tsumego"
		env.Log.Info("priors from a tsumego model", "model", rankerIn.Stage)
	}
	if netIn != nil {
		if err := loadSolveNet(&cfg, netIn, p.NetMode); err != nil {
			return err
		}
		env.Log.Info("searching with a network", "network", netIn.Stage, "mode", p.NetMode)
	}
	tasks, err := loadSolveTasks(paths)
	if err != nil {
		return err
	}
	rows := make([]evaluate.SolveRow, 0, len(tasks))
	env.Progress.Start(len(tasks), "problems")
	err = evaluate.SolveProblems(ctx, tasks, cfg, func(s evaluate.Solved) error {
		rows = append(rows, s.Row)
		env.Log.Debug("solved", "problem", s.Row.Source, "result", s.Row.Result, "nodes", s.Row.Nodes, "seconds", s.Row.Seconds)
		env.Progress.Add(1)
		return nil
	})
	env.Progress.Finish()
	if err != nil {
		return err
	}
	solved := 0
	for i := range rows {
		if rows[i].Solved() {
			solved++
		}
	}
	env.Log.Info("problems solved", "solved", solved, "of", len(rows))
	_, err = evaluate.WriteSolveResults(ctx, env.OutDir, rows, env.Manifest(evaluate.SolveResultsKind, evaluate.SolveResultsSchemaVersion))
	return err
}

// solveInputs checks the inputs of a solve stage: at least one problem path,
// and stage inputs only for networks (checked by kind when the stage runs).
func solveInputs(inputs []pipelines.Input) error {
	for _, in := range inputs {
		if in.Stage == "" {
			return nil
		}
	}
	return errors.New("no problem path: list problem directories or .json/.sgf files (stage inputs give only the network or the tsumego model)")
}

// splitSolveInputs returns the problem paths, the newest network input and
// the newest tsumego model input (nil when there is none); any other stage
// input is an error.
func splitSolveInputs(inputs []pipelines.InputRef) (paths []string, netIn, rankerIn *pipelines.InputRef, err error) {
	for i, in := range inputs {
		switch {
		case in.Stage == "":
			paths = append(paths, in.Path)
		case in.Manifest != nil && in.Manifest.Kind == train.NetworkKind:
			netIn = newerInput(netIn, &inputs[i])
		case in.Manifest != nil && in.Manifest.Kind == tsumegoModelKind:
			rankerIn = newerInput(rankerIn, &inputs[i])
		default:
			kind := ""
			if in.Manifest != nil {
				kind = in.Manifest.Kind
			}
			return nil, nil, nil, fmt.Errorf("input stage:%s is a %q dataset; solve reads problem paths, %q and %q stages",
				in.Stage, kind, train.NetworkKind, tsumegoModelKind)
		}
	}
	return paths, netIn, rankerIn, nil
}

// loadSolveNet loads the network of dataset in into cfg.
func loadSolveNet(cfg *evaluate.SolveConfig, in *pipelines.InputRef, modeName string) error {
	mode, err := neteval.ParseMode(modeName)
	if err != nil {
		return err
	}
	file, _, err := train.NetworkPath(in.Path)
	if err != nil {
		return fmt.Errorf("input stage:%s: %w", in.Stage, err)
	}
	ev, err := neteval.Load(file, mode)
	if err != nil {
		return fmt.Errorf("input stage:%s: %w", in.Stage, err)
	}
	cfg.Net, cfg.NetCheck, cfg.NetName = ev, ev.Check, "net-"+mode.String()
	return nil
}
