package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"

	"lifezero/datasets"
	"lifezero/evaluate"
	"lifezero/featmodel"
	"lifezero/features"
	"lifezero/movecands"
	"lifezero/pipelines"
)

// The output of a features-train stage: a directory holding the weights and
// the feature set they were trained on.
const (
	featureModelKind          = "feature-model"
	featureModelSchemaVersion = 1
	featureModelWeights       = "model.weights"
	featureModelSet           = "features.json"
)

func featuresTrainKind() pipelines.Kind {
	return pipelines.Kind{
		Name: "features-train",
		Doc: "Trains a feature model (bt: Bradley-Terry by minorization-maximization, lfr: latent factor " +
			"ranking, its pairs drawn uniformly, by softmax or by WARP, fbt: factorization Bradley-Terry) " +
			"on movecands datasets with the same feature set; an input that is a features-train output " +
			"(lfr, fbt) is a warm start: training continues from its weights. " +
			"Writes model.weights and features.json, and a report section with the loss curve.",
		Version:     1,
		Params:      defaultFeaturesTrainOptions(),
		CheckInputs: anyInputs,
		Run:         runFeaturesTrain,
	}
}

func runFeaturesTrain(ctx context.Context, env *pipelines.Env) error {
	p, err := pipelines.ParamsAs[featuresTrainOptions](env)
	if err != nil {
		return err
	}
	var dirs []string
	initDir := ""
	for _, in := range env.Inputs {
		switch {
		case in.Manifest != nil && in.Manifest.Kind == featureModelKind && initDir == "":
			initDir = in.Path
		case in.Manifest != nil && in.Manifest.Kind == featureModelKind:
			return fmt.Errorf("input %s: a second feature model; give at most one to warm-start from", in.Path)
		case in.Manifest == nil || in.Manifest.Kind != datasets.MoveCandsKind:
			return fmt.Errorf("input %s: want movecands datasets, and at most one features-train output to warm-start from", in.Path)
		default:
			dirs = append(dirs, in.Path)
		}
	}
	d, err := movecands.Open(dirs...)
	if err != nil {
		return err
	}
	var warm featmodel.Model
	if initDir != "" {
		if warm, err = loadWarmStart(initDir, d.Features(), p.Model); err != nil {
			return err
		}
	}
	o, err := trainFeatureModel(ctx, d, p, warm, env.Progress, env.Log)
	if err != nil {
		return err
	}
	if err := featmodel.SaveModel(filepath.Join(env.OutDir, featureModelWeights), o.Model); err != nil {
		return err
	}
	if err := d.Features().Save(filepath.Join(env.OutDir, featureModelSet)); err != nil {
		return err
	}
	env.Log.Info("model trained", "model", o.Model.Name(), "positions", o.Samples, "seconds", o.Seconds)
	if err := evaluate.WriteFeatureTrainSection(env.OutDir, o.report()); err != nil {
		return err
	}
	m := &datasets.Manifest{Kind: featureModelKind, SchemaVersion: featureModelSchemaVersion, Meta: map[string]string{
		"model": o.Model.Name(), "samples": strconv.Itoa(o.Samples), "epochs": strconv.Itoa(o.Info.Epochs),
		"seconds": strconv.FormatFloat(o.Seconds, 'f', 1, 64), "settings": o.Settings,
	}}
	for i, name := range []string{featureModelWeights, featureModelSet} {
		e, err := env.FileEntry(name, int64(1-i)) // one row: the model
		if err != nil {
			return err
		}
		m.Files = append(m.Files, e)
	}
	return env.WriteManifest(m)
}

// loadFeatureModel reads the model in a features-train output directory and
// checks that it was trained on the feature set whose JSON is set.
func loadFeatureModel(dir string, set *features.Extractor) (featmodel.Model, error) {
	m, err := featmodel.LoadModel(filepath.Join(dir, featureModelWeights))
	if err != nil {
		return nil, err
	}
	trained, err := features.Load(filepath.Join(dir, featureModelSet))
	if err != nil {
		return nil, err
	}
	if !sameFeatureSet(trained, set) {
		return nil, fmt.Errorf("%s: the model was trained on another feature set than the data's (%d and %d ids): build the data with the training data's feature set",
			dir, trained.NumFeatures(), set.NumFeatures())
	}
	return m, checkModelFeatures(m, set.NumFeatures())
}

// sameFeatureSet reports whether two feature sets give the same ids the
// same meaning.
func sameFeatureSet(a, b *features.Extractor) bool {
	if a.NumFeatures() != b.NumFeatures() {
		return false
	}
	na, nb := a.Names(), b.Names()
	for i := range na {
		if na[i] != nb[i] {
			return false
		}
	}
	return true
}

// loadWarmStart reads the model of a features-train output that a stage
// continues training (lfr and fbt): a model of the kind being trained, on
// the data's feature set.
func loadWarmStart(dir string, set *features.Extractor, model string) (featmodel.Model, error) {
	if model == "bt" {
		return nil, fmt.Errorf("input %s: a warm start applies to lfr and fbt, not bt", dir)
	}
	m, err := loadFeatureModel(dir, set)
	if err != nil {
		return nil, err
	}
	if m.Name() != model {
		return nil, fmt.Errorf("input %s: a %s model, and the stage trains %s", dir, m.Name(), model)
	}
	return m, nil
}
