package main

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"runtime"
	"slices"
	"strconv"

	"lifezero/datasets"
	"lifezero/evaluate"
	"lifezero/game"
	"lifezero/nn"
	"lifezero/pipelines"
	"lifezero/selfplay"
	"lifezero/train"
)

type selfplayParams struct {
	Preset          string  `yaml:"preset" help:"network shape <blocks>x<filters> of the samples when no network input gives one (generation 0)"`
	Board           int     `yaml:"board" help:"board size when no network input gives one"`
	MovePlanes      int     `yaml:"move_planes" help:"one-hot move-number input planes when no network input gives them"`
	Games           int     `yaml:"games" help:"games to play"`
	Simulations     int     `yaml:"simulations" help:"PUCT simulations per move (the paper: 400)"`
	TempMoves       int     `yaml:"temperature_moves" help:"moves from the start sampled by visit counts; later moves take the most visited"`
	DirichletAlpha  float64 `yaml:"dirichlet_alpha" help:"root noise concentration (the paper: 0.03)"`
	DirichletWeight float64 `yaml:"dirichlet_weight" help:"root noise weight (the paper: 0.25)"`
	DW              int     `yaml:"dw" help:"d_w when no input carries one: the living side wins by living by this move number (0: the network's D)"`
	MaxMoves        int     `yaml:"max_moves" help:"move cap per game, from its start (0: twice the region's points)"`
	GamesPerFile    int     `yaml:"games_per_file" help:"games played together (one evaluation batch) and written per file: the unit of resume"`
	LeavesPerGame   int     `yaml:"leaves_per_game" help:"leaves a game queues per batch under virtual loss"`
	Workers         int     `yaml:"workers" help:"chunks of games played at once (0: one per CPU)"`
	Seed            uint64  `yaml:"seed" help:"random seed, mixed with the stage name so generations differ"`
}

// Validate catches bad params when the pipeline is loaded.
func (p *selfplayParams) Validate() error {
	switch {
	case p.Games < 1:
		return &pipelines.ParamError{Key: "games", Msg: "want at least 1"}
	case p.Simulations < 2:
		return &pipelines.ParamError{Key: "simulations", Msg: "want at least 2"}
	case p.GamesPerFile < 1:
		return &pipelines.ParamError{Key: "games_per_file", Msg: "want at least 1"}
	case p.LeavesPerGame < 1:
		return &pipelines.ParamError{Key: "leaves_per_game", Msg: "want at least 1"}
	case p.Workers < 0 || p.DW < 0 || p.MaxMoves < 0 || p.TempMoves < 0:
		return &pipelines.ParamError{Msg: "workers, dw, max_moves and temperature_moves must be >= 0"}
	}
	if _, err := nn.Preset(p.Preset, p.Board); err != nil {
		return &pipelines.ParamError{Key: "preset", Msg: err.Error()}
	}
	return nil
}

func selfplayKind() pipelines.Kind {
	return pipelines.Kind{
		Name: "selfplay",
		Doc: "AlphaZero self-play with Faster-to-Life targets: plays games with PUCT search guided by the " +
			"newest network input (a train stage; none: uniform priors for generation 0) and writes a " +
			"selfplay-samples dataset (planes, visit-count policy, value, d-win targets and mask) with " +
			"games.sgf and a report section. Path inputs are L&D problem directories or files to start from " +
			"(none: 7x7-style kill-all on an empty board). d_w comes from the newest input that carries one " +
			"(a selfplay or train stage's next_dw, the median game length), else from the dw param.",
		Version: 1,
		Params: selfplayParams{Preset: nn.Preset2x16, Board: 7, Games: 8, Simulations: 32, TempMoves: 8,
			DirichletAlpha: 0.03, DirichletWeight: 0.25, GamesPerFile: 32, LeavesPerGame: 1, Seed: 1},
		Run: runSelfplay,
	}
}

func runSelfplay(ctx context.Context, env *pipelines.Env) error {
	p, err := pipelines.ParamsAs[selfplayParams](env)
	if err != nil {
		return err
	}
	opts := selfplay.DefaultOptions()
	opts.Games, opts.Simulations, opts.TempMoves = p.Games, p.Simulations, p.TempMoves
	opts.DirichletAlpha, opts.DirichletWeight = p.DirichletAlpha, p.DirichletWeight
	opts.MaxMoves, opts.GamesPerFile, opts.LeavesPerGame = p.MaxMoves, p.GamesPerFile, p.LeavesPerGame
	opts.Workers = p.Workers
	if opts.Workers == 0 {
		opts.Workers = runtime.NumCPU()
	}
	h := fnv.New64a()
	h.Write([]byte(env.Stage))
	opts.Seed = p.Seed ^ h.Sum64()
	opts.Log, opts.Progress = env.Log, env.Progress

	var netDir string
	var problemPaths []string
	dw, dwOrder := p.DW, -2
	for _, in := range env.Inputs {
		if in.Stage == "" {
			problemPaths = append(problemPaths, in.Path)
			continue
		}
		switch in.Manifest.Kind {
		case train.NetworkKind:
			if netDir == "" || in.Order > orderOf(env, netDir) {
				netDir = in.Path
			}
		case selfplay.SamplesKind:
		default:
			return fmt.Errorf("input stage:%s is a %q dataset; selfplay reads %q (a network) and %q (for d_w)",
				in.Stage, in.Manifest.Kind, train.NetworkKind, selfplay.SamplesKind)
		}
		if v, ok := in.Manifest.Meta[selfplay.MetaNextDW]; ok && in.Order > dwOrder {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return fmt.Errorf("input stage:%s: meta %s %q is not a move number", in.Stage, selfplay.MetaNextDW, v)
			}
			dw, dwOrder = n, in.Order
		}
	}
	if err := setNet(&opts, netDir, p.Preset, p.Board, p.MovePlanes); err != nil {
		return err
	}
	if dw == 0 {
		dw = opts.Config.D
	}
	opts.DW = dw
	if opts.Starts, err = selfplayStarts(problemPaths, opts.Config.Board); err != nil {
		return err
	}
	env.Log.Info("self-play", "games", opts.Games, "simulations", opts.Simulations, "net", opts.NetName, "dw", opts.DW)
	res, err := selfplay.Run(ctx, env.OutDir, opts)
	if err != nil {
		return err
	}
	if err := writeSelfplaySection(env.OutDir, env.Stage, res); err != nil {
		return err
	}
	m, err := res.Manifest(env.Manifest(selfplay.SamplesKind, selfplay.SamplesSchemaVersion))
	if err != nil {
		return err
	}
	return env.WriteManifest(&m)
}

// orderOf returns the pipeline order of the stage input at dir.
func orderOf(env *pipelines.Env, dir string) int {
	for _, in := range env.Inputs {
		if in.Path == dir {
			return in.Order
		}
	}
	return -1
}

// setNet sets opts.Net, NetName and Config from the network dataset or
// weights file at path, or, for path "", to the uniform net of a preset.
func setNet(opts *selfplay.Options, path, preset string, board, movePlanes int) error {
	if path == "" {
		c, err := nn.Preset(preset, board)
		if err != nil {
			return err
		}
		c.MoveNumberPlanes = movePlanes
		opts.Config, opts.Net, opts.NetName = c, nil, "uniform"
		return nil
	}
	file, sha, err := weightsFile(path)
	if err != nil {
		return err
	}
	w, err := nn.Load(file)
	if err != nil {
		return err
	}
	e, err := nn.NewEvaluator(w)
	if err != nil {
		return err
	}
	opts.Config, opts.Net, opts.NetName = w.Config, e, fmt.Sprintf("%s (%s) sha256:%.12s", w.Config, file, sha)
	return nil
}

// weightsFile resolves a network dataset directory or a weights file to the
// weights file and its SHA-256.
func weightsFile(path string) (file, sha string, err error) {
	if m, err := datasets.ReadManifest(path); err == nil {
		file, _, err := train.NetworkPath(path)
		if err != nil {
			return "", "", err
		}
		for _, f := range m.Files {
			if f.Name == train.NetworkFile {
				sha = f.SHA256
			}
		}
		return file, sha, nil
	}
	sha, _, err = datasets.HashFile(path)
	if err != nil {
		return "", "", fmt.Errorf("network %s: %w", path, err)
	}
	return path, sha, nil
}

// selfplayStarts loads the problems to start from, or the kill-all start.
func selfplayStarts(paths []string, board int) ([]selfplay.Start, error) {
	if len(paths) == 0 {
		ka, err := selfplay.KillAll(board)
		if err != nil {
			return nil, err
		}
		return []selfplay.Start{ka}, nil
	}
	var problems []*game.Problem
	for _, p := range paths {
		probs, err := loadProblems(p)
		if err != nil {
			return nil, err
		}
		problems = append(problems, probs...)
	}
	return selfplay.ProblemStarts(problems)
}

// writeSelfplaySection writes the stage's report section.
func writeSelfplaySection(outDir, stage string, res *selfplay.Result) error {
	s := res.Summary
	rate := func(n int) string {
		if s.Games == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(s.Games))
	}
	rows := [][]string{
		{"games", strconv.Itoa(s.Games)},
		{"living side lived", fmt.Sprintf("%d (%s)", s.LivingWins, rate(s.LivingWins))},
		{"... by move d_w", fmt.Sprintf("%d (%s)", s.WinsWithinDW, rate(s.WinsWithinDW))},
		{"stopped at the move cap", strconv.Itoa(s.Undecided)},
		{"mean game length (end move number)", fmt.Sprintf("%.1f", s.MeanLength)},
		{"d_w played", strconv.Itoa(s.DW)},
		{"next d_w (median length)", strconv.Itoa(s.NextDW)},
		{"samples", strconv.FormatInt(s.Samples, 10)},
		{"simulations per move", strconv.Itoa(res.Simulations)},
		{"network", res.NetName},
		{"seconds", fmt.Sprintf("%.1f", s.Seconds)},
	}
	lengths := map[int]int{}
	for _, g := range res.Games {
		lengths[g.EndMove]++
	}
	md := evaluate.MarkdownTable([]string{"", stage}, rows)
	if len(lengths) > 0 {
		chart := evaluate.BarChart{Title: "game lengths", YLabel: "games"}
		keys := make([]int, 0, len(lengths))
		for k := range lengths {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		g := evaluate.BarGroup{Name: "games"}
		for _, k := range keys {
			chart.Categories = append(chart.Categories, strconv.Itoa(k))
			g.Values = append(g.Values, float64(lengths[k]))
		}
		chart.Groups = []evaluate.BarGroup{g}
		file, err := evaluate.SaveBarChart(outDir, "lengths", chart)
		if err != nil {
			return err
		}
		md += "\n" + evaluate.Image("game lengths (end move numbers)", file) + "\n"
	}
	return evaluate.WriteSection(outDir, "Self-play: "+stage, md)
}

// netConfigOf reads the network config a samples dataset was written for.
func netConfigOf(m *datasets.Manifest) (nn.Config, error) {
	var c nn.Config
	v, ok := m.Meta[selfplay.MetaNetConfig]
	if !ok {
		return c, fmt.Errorf("samples of stage %q carry no %s meta", m.Stage, selfplay.MetaNetConfig)
	}
	if err := json.Unmarshal([]byte(v), &c); err != nil {
		return c, fmt.Errorf("samples of stage %q: meta %s: %w", m.Stage, selfplay.MetaNetConfig, err)
	}
	return c, c.Validate()
}
