package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"lifezero/datasets"
	"lifezero/evaluate"
	"lifezero/match"
	"lifezero/pipelines"
)

// matchSummariesKind is the match stage's dataset: one match directory per
// feature model (games, results.json and a match-results dataset).
const matchSummariesKind = "match-summaries"

// selfProgram is how a match stage names lifezero's own binary in its
// engines' command lines; it is mapped to the running executable.
const selfProgram = "lifezero"

func matchKind() pipelines.Kind {
	return pipelines.Kind{
		Name: "match",
		Doc: "Plays each feature model of its inputs (features-train stages) through lifezero's GTP engine against " +
			"an opponent (GNU Go by default), colours alternating unless fixed_colours, and writes per model the games (SGF), their results " +
			"and the score with its 95% interval and Elo, with a report section; an interrupted match resumes.",
		Version:     1,
		Params:      defaultMatchOptions(),
		CheckInputs: stageInputs,
		Run:         runMatch,
	}
}

func runMatch(ctx context.Context, env *pipelines.Env) error {
	p, err := pipelines.ParamsAs[matchOptions](env)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("match: the lifezero binary: %w", err)
	}
	m := &datasets.Manifest{Kind: matchSummariesKind, SchemaVersion: 1}
	var entries []evaluate.MatchEntry
	for _, in := range env.Inputs {
		if in.Manifest == nil || in.Manifest.Kind != featureModelKind {
			return fmt.Errorf("input stage:%s is not a %q dataset; match plays feature models", in.Stage, featureModelKind)
		}
		dir, err := filepath.Abs(in.Path)
		if err != nil {
			return err
		}
		if strings.ContainsAny(dir, " \t") {
			return fmt.Errorf("input stage:%s: its path %q holds a space, which an engine command line cannot", in.Stage, dir)
		}
		o := p.options(fmt.Sprintf("%s gtp --features-model %s --sample-moves %d", selfProgram, dir, p.SampleMoves),
			p.Opponent, filepath.Join(env.OutDir, in.Stage))
		o.Programs = map[string]string{selfProgram: self}
		o.Progress, o.Log = env.Progress, env.Log
		env.Log.Info("match", "player", in.Stage, "opponent", p.Opponent, "games", p.Games)
		sum, err := match.Run(ctx, o)
		if err != nil {
			return fmt.Errorf("match %s: %w", in.Stage, err)
		}
		entries = append(entries, evaluate.MatchEntry{Player: in.Stage, Opponent: opponentName(p.Opponent), Summary: sum})
		e, err := env.FileEntry(filepath.Join(in.Stage, "results.json"), int64(len(sum.Games)))
		if err != nil {
			return err
		}
		m.Files = append(m.Files, e)
	}
	colours := "colours alternating"
	if p.FixedColours {
		colours = "the model Black in every game"
	}
	if p.Handicap > 1 {
		colours = fmt.Sprintf("handicap %d, %s", p.Handicap, colours)
	}
	settings := fmt.Sprintf("Each feature model plays `lifezero gtp --features-model DIR --sample-moves %d` against `%s`: "+
		"%dx%d, komi %g, %s, %d games each; records in `%s/<model>/games/`.",
		p.SampleMoves, p.Opponent, p.Size, p.Size, p.Komi, colours, p.Games, env.Stage)
	if err := evaluate.WriteMatchSection(env.OutDir, settings, entries); err != nil {
		return err
	}
	return env.WriteManifest(m)
}

// opponentName shortens an opponent's command line for the tables: GNU Go
// with its level, else the program's name.
func opponentName(cmdline string) string {
	f := strings.Fields(cmdline)
	name := filepath.Base(f[0])
	if name == "gnugo" {
		level := "10" // GNU Go's default
		for i := 1; i+1 < len(f); i++ {
			if f[i] == "--level" {
				level = f[i+1]
			}
		}
		return "GNU Go level " + level
	}
	return name
}
