package main

import (
	"context"
	"fmt"
	"strings"

	"lifezero/datasets"
	"lifezero/evaluate"
	"lifezero/featmodel"
	"lifezero/movecands"
	"lifezero/movepred"
	"lifezero/pipelines"
)

func movepredKind() pipelines.Kind {
	return pipelines.Kind{
		Name: "movepred",
		Doc: "Evaluates the feature models of its features-train inputs (and the random player) on the " +
			"move prediction of its movecands inputs: top-1/top-k accuracy, mean log-likelihood, accuracy per " +
			"game phase and feature frequencies. Writes a movepred-results dataset (one row per player) and a " +
			"report section with the per-phase plot (paper 004 Figs 4.2/4.3) and the frequency tables (Sec. 4.4).",
		Version:     1,
		Params:      defaultMovepredOptions(),
		CheckInputs: anyInputs,
		Run:         runMovepred,
	}
}

func runMovepred(ctx context.Context, env *pipelines.Env) error {
	p, err := pipelines.ParamsAs[movepredOptions](env)
	if err != nil {
		return err
	}
	var dataDirs []string
	var modelIns []pipelines.InputRef
	for _, in := range env.Inputs {
		switch {
		case in.Manifest != nil && in.Manifest.Kind == datasets.MoveCandsKind:
			dataDirs = append(dataDirs, in.Path)
		case in.Manifest != nil && in.Manifest.Kind == featureModelKind:
			modelIns = append(modelIns, in)
		default:
			return fmt.Errorf("input %s: want movecands datasets and features-train outputs", in.Path)
		}
	}
	if len(dataDirs) == 0 {
		return fmt.Errorf("no movecands dataset among the inputs to evaluate on")
	}
	d, err := movecands.Open(dataDirs...)
	if err != nil {
		return err
	}
	rankers, err := stageRankers(modelIns, d)
	if err != nil {
		return err
	}
	rankers = p.withRandom(rankers)
	if len(rankers) == 0 {
		return fmt.Errorf("no players: give features-train inputs or set random: true")
	}
	results, err := evaluatePlayers(ctx, d, rankers, p.evalOptions(), env.Progress)
	if err != nil {
		return err
	}
	for _, r := range results {
		env.Log.Info("move prediction", "player", r.Player, "positions", r.Positions, "top1", r.Top1, "top5", r.Top5)
	}
	mf := env.Manifest(evaluate.MovePredKind, evaluate.MovePredSchemaVersion)
	mf.InputHash = "pending-report:" + env.InputHash // done once the section is written too
	m, err := evaluate.WriteMovePredResults(env.OutDir, results, mf)
	if err != nil {
		return err
	}
	rep := evaluate.MovePredReport{Data: dataDescription(d), FeatureName: d.Features().Name}
	if err := evaluate.WriteMovePredSection(env.OutDir, results, rep); err != nil {
		return err
	}
	return env.WriteManifest(m)
}

// stageRankers loads the models of features-train outputs as players, named
// after their model, or after their stage when two share a model.
func stageRankers(ins []pipelines.InputRef, d *movecands.Data) ([]movepred.Ranker, error) {
	models := make([]featmodel.Model, len(ins))
	count := map[string]int{}
	for i, in := range ins {
		m, err := loadFeatureModel(in.Path, d.Features())
		if err != nil {
			return nil, err
		}
		models[i] = m
		count[m.Name()]++
	}
	rankers := make([]movepred.Ranker, len(models))
	for i, m := range models {
		r := movepred.FromModel(m)
		if count[m.Name()] > 1 {
			r.Label = ins[i].Stage
		}
		rankers[i] = r
	}
	return rankers, nil
}

// dataDescription says in one line what positions the players were
// evaluated on.
func dataDescription(d *movecands.Data) string {
	var parts []string
	for i, m := range d.Manifests() {
		s, err := movecands.SummaryOf(m)
		if err != nil {
			parts = append(parts, fmt.Sprintf("%d positions of %s", m.Rows, d.Dirs()[i]))
			continue
		}
		dates := s.Dates.String()
		switch {
		case dates == "":
			dates = "any date"
		case s.Dates.From == s.Dates.To:
			dates = s.Dates.From
		}
		perGame := "every position"
		if s.PositionsPerGame > 0 {
			perGame = fmt.Sprintf("up to %d positions each", s.PositionsPerGame)
		}
		parts = append(parts, fmt.Sprintf("%d positions of %d games dated %s (%s, %d feature ids)", s.Positions, s.Used, dates, perGame, s.NumFeatures))
	}
	return "Evaluated on " + strings.Join(parts, "; ") + "."
}
