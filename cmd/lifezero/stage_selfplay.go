package main

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
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
		Params:  defaultSelfplayOptions(),
		Run:     runSelfplay,
	}
}

func runSelfplay(ctx context.Context, env *pipelines.Env) error {
	p, err := pipelines.ParamsAs[selfplayOptions](env)
	if err != nil {
		return err
	}
	opts := p.options()
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
