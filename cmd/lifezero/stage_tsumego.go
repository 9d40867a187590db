package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"lifezero/datasets"
	"lifezero/evaluate"
	"lifezero/featmodel"
	"lifezero/features"
	"lifezero/game"
	"lifezero/pipelines"
	"lifezero/rzs"
	"lifezero/tsumego"
)

// tsumegoModelKind is the manifest kind of a tsumego-train output: a model
// directory (tsumego.Save) a solve stage reads as move priors.
const (
	tsumegoModelKind          = "tsumego-model"
	tsumegoModelSchemaVersion = 1
)

func tsumegoKind() pipelines.Kind {
	return pipelines.Kind{
		Name: "tsumego-train",
		Doc: "Trains move priors for the solver on a first-move tsumego collection (the first path input: a " +
			"directory of .sgf problems, each a setup position and the book's first move): a Bradley-Terry " +
			"model over the Fuego-style and life-and-death features, measured by cross-validation. Further " +
			"path inputs are the problem sets to be measured: training problems found inside one of their " +
			"positions are left out. A stage input, an earlier tsumego-train stage, gives the positions its " +
			"proofs labelled, fitted again without proving (as --samples-from). A solve stage given this " +
			"stage's output uses the model as priors.",
		Version:     1,
		Params:      defaultTsumegoOptions(),
		CheckInputs: tsumegoInputs,
		Run:         runTsumego,
	}
}

func runTsumego(ctx context.Context, env *pipelines.Env) error {
	p, err := pipelines.ParamsAs[tsumegoOptions](env)
	if err != nil {
		return err
	}
	began := time.Now()
	var measured []string
	var src extraSources
	for _, in := range env.Inputs[1:] {
		if in.Stage == "" {
			measured = append(measured, in.Path)
			continue
		}
		file, err := stageSamplesFile(in)
		if err != nil {
			return err
		}
		src.files = append(src.files, samplesFile{path: file, via: "input stage:" + in.Stage})
	}
	meta, _, err := trainTsumego(ctx, p, src, env.Inputs[0].Path, filepath.Base(env.Inputs[0].Path), measured, env.OutDir, env.Progress)
	if err != nil {
		return err
	}
	env.Log.Info("tsumego model trained", "problems", meta.Problems, "proof_samples", meta.ProofSamples,
		"left_out", len(meta.Excluded), "top1", fmt.Sprintf("%.3f", meta.CrossValidated.Top1))
	if err := evaluate.WriteTsumegoSection(env.OutDir, meta, time.Since(began).Seconds()); err != nil {
		return err
	}
	m := &datasets.Manifest{Kind: tsumegoModelKind, SchemaVersion: tsumegoModelSchemaVersion, Meta: map[string]string{
		"problems": strconv.Itoa(meta.Problems), "top1": strconv.FormatFloat(meta.CrossValidated.Top1, 'f', 4, 64),
	}}
	files := []string{tsumego.WeightsFile, tsumego.FeatureSetFile, tsumego.MetaFile}
	if meta.ProofSamples > 0 {
		files = append(files, tsumego.SamplesFile)
	}
	for _, name := range files {
		rows := int64(0)
		switch name {
		case tsumego.MetaFile:
			rows = int64(meta.Problems) // the problems the model was trained on
		case tsumego.SamplesFile:
			rows = int64(meta.ProofSamples)
		}
		e, err := env.FileEntry(name, rows)
		if err != nil {
			return err
		}
		m.Files = append(m.Files, e)
	}
	return env.WriteManifest(m)
}

// tsumegoInputs checks a tsumego-train stage's inputs: the collection
// first, a path; then the problem sets to be measured and earlier
// tsumego-train stages (checked by kind when the stage runs).
func tsumegoInputs(inputs []pipelines.Input) error {
	if len(inputs) == 0 {
		return errNoInputs
	}
	if in := inputs[0]; in.Stage != "" {
		return fmt.Errorf("%q is a stage output; the first input is the collection, a directory of .sgf problems", in.Raw)
	}
	return nil
}

// stageSamplesFile returns the proof samples file of an earlier
// tsumego-train stage's model. A model fitted without proof-labelled
// positions has none, and giving it as an input is then an error rather
// than nothing fitted.
func stageSamplesFile(in pipelines.InputRef) (string, error) {
	if in.Kind() != tsumegoModelKind {
		return "", fmt.Errorf("input stage:%s is a %q dataset; tsumego-train reads only %q stages (their proof samples)", in.Stage, in.Kind(), tsumegoModelKind)
	}
	for _, f := range in.Manifest.Files {
		if f.Name == tsumego.SamplesFile {
			return filepath.Join(in.Path, tsumego.SamplesFile), nil
		}
	}
	return "", fmt.Errorf("input stage:%s: its model was fitted without proof-labelled positions (no %s): nothing to fit again", in.Stage, tsumego.SamplesFile)
}

// extraSources says where trainTsumego finds samples beyond the book's
// moves besides its params' proofs: order orders the proving searches (nil:
// the solver's default evaluator), and files are sample files of earlier
// models (tsumego.SamplesFile), each named in errors by where it was given
// (via: "--samples-from", "input stage:NAME").
type extraSources struct {
	order rzs.Evaluator
	files []samplesFile
}

// samplesFile is a proof samples file and where it was given.
type samplesFile struct {
	path, via string
}

// trainTsumego trains a model on the collection in dir (named source in
// its meta), leaving out the problems found in the measured problem sets,
// and saves it to out. Besides the book's moves it fits the positions
// labelled by proof (extraSamples), and saves them to out too. It returns
// the model's meta and how many problems the collection held.
func trainTsumego(ctx context.Context, p tsumegoOptions, src extraSources, dir, source string, measuredPaths []string, out string, progress pipelines.Progress) (tsumego.Meta, int, error) {
	problems, err := tsumego.Load(dir)
	if err != nil {
		return tsumego.Meta{}, 0, err
	}
	measured, err := loadMeasured(measuredPaths)
	if err != nil {
		return tsumego.Meta{}, 0, err
	}
	kept, dropped := excludeMeasured(problems, measured, false)
	setCfg := features.DefaultConfig()
	setCfg.NoLadders = !p.Ladders
	set, err := features.New(setCfg)
	if err != nil {
		return tsumego.Meta{}, 0, err
	}
	cfg := tsumego.TrainConfig{Folds: p.Folds, NoLD: !p.LD, BT: featmodel.DefaultBTConfig()}
	cfg.BT.MaxIterations = p.Iterations
	var extraDropped int
	if cfg.Extra, extraDropped, err = extraSamples(ctx, p, src, kept, measured, progress); err != nil {
		return tsumego.Meta{}, 0, err
	}
	progress.Start(1, "models")
	model, meta, err := tsumego.Train(ctx, kept, set, cfg)
	progress.Add(1)
	progress.Finish()
	if err != nil {
		return tsumego.Meta{}, 0, err
	}
	meta.Source, meta.Excluded, meta.ProofSamplesExcluded = source, dropped, extraDropped
	// The samples go first, and a stale file goes, so that a model
	// directory never holds samples other than those its model was fitted
	// on.
	samples := filepath.Join(out, tsumego.SamplesFile)
	if len(cfg.Extra) > 0 {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return tsumego.Meta{}, 0, err
		}
		err = tsumego.SaveSamples(samples, cfg.Extra)
	} else if err = os.Remove(samples); errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	if err != nil {
		return tsumego.Meta{}, 0, err
	}
	return meta, len(problems), tsumego.Save(out, model, set, meta)
}

// extraSamples gathers the positions labelled by proof: the book problems'
// (p.Proofs), random kill-all positions' (p.KillAll), the book problems'
// variations' (p.Variations) and those of src's
// files, less any that overlap a measured position either way (see
// excludeMeasured), and how many it left out so. A file's sample must come
// from a problem trained on here (or from random kill-all positions).
func extraSamples(ctx context.Context, p tsumegoOptions, src extraSources, kept []tsumego.Problem, measured []*game.Problem, progress pipelines.Progress) ([]tsumego.Problem, int, error) {
	var extra []tsumego.Problem
	proof := tsumego.ProofConfig{Budget: p.Proofs, Evaluator: src.order, Workers: runtime.GOMAXPROCS(0)}
	trained := map[string]bool{tsumego.KillAllName: true}
	for _, k := range kept {
		trained[k.Name] = true
	}
	for _, f := range src.files {
		s, err := tsumego.LoadSamples(f.path)
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", f.via, err)
		}
		for i, x := range s {
			if !trained[x.From] {
				return nil, 0, fmt.Errorf("%s: %s: game %d comes from %q, which this run does not train on (left out as measured, or not in the collection)", f.via, f.path, i+1, x.From)
			}
		}
		extra = append(extra, s...)
	}
	if p.Proofs > 0 {
		progress.Start(len(kept), "proofs")
		s, _, err := tsumego.ProofSamples(ctx, kept, proof, func(int) { progress.Add(1) })
		progress.Finish()
		if err != nil {
			return nil, 0, err
		}
		extra = append(extra, s...)
	}
	if p.KillAll > 0 {
		progress.Start(p.KillAll, "kill-all proofs")
		s, _, err := tsumego.KillAllSamples(ctx, tsumego.KillAllConfig{Positions: p.KillAll, Seed: 1, Proof: proof},
			func(int) { progress.Add(1) })
		progress.Finish()
		if err != nil {
			return nil, 0, err
		}
		extra = append(extra, s...)
	}
	if p.Variations > 0 {
		progress.Start(p.Variations, "variation proofs")
		s, _, err := tsumego.VariationSamples(ctx, kept, tsumego.VariationConfig{Positions: p.Variations, Seed: 1, Proof: proof},
			func(int) { progress.Add(1) })
		progress.Finish()
		if err != nil {
			return nil, 0, err
		}
		extra = append(extra, s...)
	}
	extra, dropped := excludeMeasured(extra, measured, true)
	return extra, len(dropped), nil
}
