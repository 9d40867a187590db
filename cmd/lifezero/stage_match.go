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

type matchParams struct {
	Opponent    string  `yaml:"opponent" help:"the opponent's GTP command line (split on spaces)"`
	Games       int     `yaml:"games" help:"games per feature model"`
	Size        int     `yaml:"size" help:"board size"`
	Komi        float64 `yaml:"komi" help:"komi"`
	SampleMoves int     `yaml:"sample_moves" help:"the feature player draws its first N moves from the softmax of its scores, so games differ"`
	MaxMoves    int     `yaml:"max_moves" help:"end a game after N moves and score it as it stands (0: 3 x size²)"`
	Seed        uint64  `yaml:"seed" help:"match seed (each game's engines get a seed from it)"`
}

func (p *matchParams) Validate() error {
	switch {
	case strings.TrimSpace(p.Opponent) == "":
		return &pipelines.ParamError{Key: "opponent", Msg: "empty: give the opponent's GTP command line"}
	case p.Games < 1:
		return &pipelines.ParamError{Key: "games", Msg: fmt.Sprintf("%d: want at least 1", p.Games)}
	case p.Size < 5 || p.Size > 19:
		return &pipelines.ParamError{Key: "size", Msg: fmt.Sprintf("%d: want 5..19", p.Size)}
	case p.SampleMoves < 0:
		return &pipelines.ParamError{Key: "sample_moves", Msg: fmt.Sprintf("%d: want 0 or more", p.SampleMoves)}
	case p.MaxMoves < 0:
		return &pipelines.ParamError{Key: "max_moves", Msg: fmt.Sprintf("%d: want 0 or more", p.MaxMoves)}
	}
	return nil
}

func matchKind() pipelines.Kind {
	return pipelines.Kind{
		Name: "match",
		Doc: "Plays each feature model of its inputs (features-train stages) through lifezero's GTP engine against " +
			"an opponent (GNU Go by default), colours alternating, and writes per model the games (SGF), their results " +
			"and the score with its 95% interval and Elo, with a report section; an interrupted match resumes.",
		Version: 1,
		Params: matchParams{Opponent: "/usr/games/gnugo --mode gtp --level 1 --chinese-rules", Games: 20, Size: 9, Komi: 7.5,
			SampleMoves: 8, Seed: 1},
		CheckInputs: stageInputs,
		Run:         runMatch,
	}
}

func runMatch(ctx context.Context, env *pipelines.Env) error {
	p, err := pipelines.ParamsAs[matchParams](env)
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
		o := match.Options{
			A:     fmt.Sprintf("%s gtp --features-model %s --sample-moves %d", selfProgram, dir, p.SampleMoves),
			B:     p.Opponent,
			Games: p.Games, Size: p.Size, Komi: p.Komi, MaxMoves: p.MaxMoves, Seed: p.Seed,
			OutDir:   filepath.Join(env.OutDir, in.Stage),
			Programs: map[string]string{selfProgram: self},
			Progress: env.Progress, Log: env.Log,
		}
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
	settings := fmt.Sprintf("Each feature model plays `lifezero gtp --features-model DIR --sample-moves %d` against `%s`: "+
		"%dx%d, komi %g, colours alternating, %d games each; records in `%s/<model>/games/`.",
		p.SampleMoves, p.Opponent, p.Size, p.Size, p.Komi, p.Games, env.Stage)
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
