package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"

	"lifezero/datasets"
	"lifezero/evaluate"
	"lifezero/nn"
	"lifezero/pipelines"
	"lifezero/selfplay"
	"lifezero/train"
)

func trainKind() pipelines.Kind {
	return pipelines.Kind{
		Name: "train",
		Doc: "Trains the network on the samples of its selfplay inputs (the newest window of them), starting " +
			"from the newest network input (a train stage) or from random weights, with momentum SGD or Adam " +
			"on the policy cross-entropy, value squared error and d-win cross-entropy. Writes a network " +
			"dataset (network.lznn, losses.arrow) with the loss curve in its report section. Checkpoints " +
			"every checkpoint_every steps: a killed run resumes from the last one.",
		Version:     1,
		Params:      defaultTrainOptions(),
		CheckInputs: stageInputs,
		Run:         runTrain,
	}
}

func runTrain(ctx context.Context, env *pipelines.Env) error {
	p, err := pipelines.ParamsAs[trainOptions](env)
	if err != nil {
		return err
	}
	var samples []pipelines.InputRef
	var netIn *pipelines.InputRef
	for i, in := range env.Inputs {
		switch in.Manifest.Kind {
		case selfplay.SamplesKind:
			samples = append(samples, in)
		case train.NetworkKind:
			netIn = newerInput(netIn, &env.Inputs[i])
		default:
			return fmt.Errorf("input stage:%s is a %q dataset; train reads %q and %q", in.Stage, in.Manifest.Kind,
				selfplay.SamplesKind, train.NetworkKind)
		}
	}
	if len(samples) == 0 {
		return fmt.Errorf("no %s input: list the selfplay stages to train on", selfplay.SamplesKind)
	}
	sort.SliceStable(samples, func(i, j int) bool { return samples[i].Order < samples[j].Order })
	samples = newestWindow(samples, p.Window)
	dirs := make([]string, len(samples))
	for i, in := range samples {
		dirs[i] = in.Path
	}
	initPath := ""
	if netIn != nil {
		initPath = netIn.Path
	}
	opts := p.options()
	opts.CheckpointDir, opts.Log, opts.Progress = env.OutDir, env.Log, env.Progress
	meta := samples[len(samples)-1].Manifest.Meta
	m, err := trainNetwork(ctx, env.OutDir, dirs, initPath, p.Preset, p.MaxSamples, opts, env.Stage,
		env.Manifest(train.NetworkKind, train.NetworkSchemaVersion), meta[selfplay.MetaNextDW])
	if err != nil {
		return err
	}
	if err := env.WriteManifest(m); err != nil {
		return err
	}
	if err := train.RemoveCheckpoints(env.OutDir); err != nil {
		env.Log.Warn("could not remove the training checkpoint", "err", err)
	}
	return nil
}

// trainNetwork trains on the samples datasets dirs (oldest first) from the
// network at initPath (a network dataset or weights file; "" for random
// weights of preset, or of the samples' shape), writes network.lznn,
// losses.arrow and the report section into outDir, and returns the
// manifest to write (template m with files and meta filled in; nextDW is
// carried to the next generation).
func trainNetwork(ctx context.Context, outDir string, dirs []string, initPath, preset string, maxSamples int,
	opts train.NetOptions, stage string, m datasets.Manifest, nextDW string) (*datasets.Manifest, error) {
	data, err := train.LoadNetData(ctx, dirs, maxSamples)
	if err != nil {
		return nil, err
	}
	newest, err := datasets.ReadManifest(dirs[len(dirs)-1])
	if err != nil {
		return nil, err
	}
	cfg, err := netConfigOf(newest)
	if err != nil {
		return nil, err
	}
	init := "random"
	if initPath != "" {
		file, sha, err := weightsFile(initPath)
		if err != nil {
			return nil, err
		}
		if opts.Train.Init, err = nn.Load(file); err != nil {
			return nil, err
		}
		cfg = opts.Train.Init.Config
		init = fmt.Sprintf("%s sha256:%.12s", filepath.Join(filepath.Base(filepath.Dir(file)), filepath.Base(file)), sha)
	} else if preset != "" {
		pc, err := nn.Preset(preset, cfg.Board)
		if err != nil {
			return nil, err
		}
		cfg.Blocks, cfg.Filters = pc.Blocks, pc.Filters
	}
	opts.Config = cfg
	res, err := train.TrainNet(ctx, data, opts)
	if err != nil {
		return nil, err
	}
	if err := res.Weights.Save(filepath.Join(outDir, train.NetworkFile)); err != nil {
		return nil, err
	}
	sha, size, err := datasets.HashFile(filepath.Join(outDir, train.NetworkFile))
	if err != nil {
		return nil, err
	}
	lossEntry, err := train.WriteLosses(outDir, res.Losses)
	if err != nil {
		return nil, err
	}
	if err := writeTrainSection(outDir, stage, cfg, init, data.N, len(dirs), &opts, res); err != nil {
		return nil, err
	}
	cfgJSON, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	m.Files = []datasets.FileEntry{{Name: train.NetworkFile, Rows: 1, Bytes: size, SHA256: sha}, lossEntry}
	m.Meta = map[string]string{
		selfplay.MetaNetConfig: string(cfgJSON), "steps": strconv.Itoa(res.Steps), "samples": strconv.Itoa(data.N),
		"datasets": strconv.Itoa(len(dirs)), "init": init,
	}
	if nextDW != "" {
		m.Meta[selfplay.MetaNextDW] = nextDW
	}
	if n := len(res.Losses); n > 0 {
		last := res.Losses[n-1]
		m.Meta["loss_policy"] = strconv.FormatFloat(last.Policy, 'f', 5, 64)
		m.Meta["loss_value"] = strconv.FormatFloat(last.Value, 'f', 5, 64)
		m.Meta["loss_dwin"] = strconv.FormatFloat(last.DWin, 'f', 5, 64)
	}
	return &m, nil
}

// writeTrainSection writes the report section: the run's settings, the
// last losses and the loss curves.
func writeTrainSection(outDir, stage string, cfg nn.Config, init string, samples, sets int, o *train.NetOptions, res *train.NetResult) error {
	rows := [][]string{
		{"network", cfg.String()},
		{"started from", init},
		{"samples (datasets)", fmt.Sprintf("%d (%d)", samples, sets)},
		{"steps x batch", fmt.Sprintf("%d x %d", res.Steps, o.BatchSize)},
		{"optimizer", optimizerText(o)},
		{"resumed at step", strconv.Itoa(res.Resumed)},
		{"samples/s", fmt.Sprintf("%.0f", res.SamplesPerSecond)},
	}
	if n := len(res.Losses); n > 0 {
		first, last := res.Losses[0], res.Losses[n-1]
		rows = append(rows,
			[]string{"policy loss (first, last)", fmt.Sprintf("%.4f, %.4f", first.Policy, last.Policy)},
			[]string{"value loss", fmt.Sprintf("%.4f, %.4f", first.Value, last.Value)},
			[]string{"d-win loss", fmt.Sprintf("%.4f, %.4f", first.DWin, last.DWin)})
	}
	md := evaluate.MarkdownTable([]string{"", stage}, rows)
	if len(res.Losses) > 0 {
		series := []evaluate.Series{{Name: "policy"}, {Name: "value"}, {Name: "d-win"}}
		for _, l := range res.Losses {
			for i, v := range []float64{l.Policy, l.Value, l.DWin} {
				series[i].X = append(series[i].X, float64(l.Step))
				series[i].Y = append(series[i].Y, v)
			}
		}
		file, err := evaluate.SaveLinePlot(outDir, "losses", evaluate.LinePlot{
			Title: "training losses: " + stage, XLabel: "step", YLabel: "loss", Series: series})
		if err != nil {
			return err
		}
		md += "\n" + evaluate.Image("training losses", file) + "\n"
	}
	return evaluate.WriteSection(outDir, "Training: "+stage, md)
}

func optimizerText(o *train.NetOptions) string {
	s := fmt.Sprintf("%s, lr %g", o.Train.Optimizer, o.Train.LearningRate)
	if o.LRDropStep > 0 {
		s += fmt.Sprintf(", %g from step %d", o.LowLR, o.LRDropStep)
	}
	return s
}
