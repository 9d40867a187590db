package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"

	"lifezero/datasets"
	"lifezero/evaluate"
	"lifezero/internal/atomicfile"
	"lifezero/pipelines"
	"lifezero/selfplay"
	"lifezero/sgf"
)

// withSelfplayShards makes the selfplay kind shardable ("shards: N" in a
// pipeline file): shard i plays its share of the games with its own seed,
// and the merge renumbers the shards' sample files into one dataset with
// the games, the summary and the report of all of them. Run through
// Temporal, the shards play on as many workers.
func withSelfplayShards(k pipelines.Kind) pipelines.Kind {
	k.Shard = &pipelines.Sharding{Params: selfplayShardParams, Merge: mergeSelfplayShards}
	return k
}

// selfplayShardParams gives shard i of n its share of the games (the first
// games%n shards one more) and a seed of its own: games are seeded by their
// index within a run, so shards with the stage's seed would replay the same
// games.
func selfplayShardParams(params any, i, n int) (any, error) {
	p, ok := params.(selfplayOptions)
	if !ok {
		return nil, fmt.Errorf("selfplay shards: params are %T", params)
	}
	if p.Games < n {
		return nil, fmt.Errorf("%d games cannot be split into %d shards: lower shards or raise games", p.Games, n)
	}
	games := p.Games / n
	if i < p.Games%n {
		games++
	}
	p.Games = games
	p.Seed ^= uint64(i+1) * 0x9e3779b97f4a7c15
	return p, nil
}

// mergeSelfplayShards writes the stage's samples dataset from the shards'.
func mergeSelfplayShards(ctx context.Context, env *pipelines.Env, shards []string) error {
	res := &selfplay.Result{GamesFile: selfplay.GamesFileName}
	var coll sgf.Collection
	var first *datasets.Manifest
	for i, dir := range shards {
		if err := ctx.Err(); err != nil {
			return err
		}
		m, err := datasets.ReadManifest(dir)
		if err != nil {
			return err
		}
		if first == nil {
			first = m
			if res.Config, err = netConfigOf(m); err != nil {
				return err
			}
			res.NetName = m.Meta["net"]
			res.Simulations, _ = strconv.Atoi(m.Meta["simulations"])
		} else if m.Meta[selfplay.MetaNetConfig] != first.Meta[selfplay.MetaNetConfig] || m.Meta[selfplay.MetaDW] != first.Meta[selfplay.MetaDW] {
			return fmt.Errorf("shard %d played another network or d_w than shard 1 (%s)", i+1, dir)
		}
		for _, f := range m.Files {
			name := fmt.Sprintf("samples-%05d%s", len(res.Files), datasets.FileExt)
			if err := copyFile(filepath.Join(dir, f.Name), filepath.Join(env.OutDir, name)); err != nil {
				return err
			}
			f.Name = name
			res.Files = append(res.Files, f)
		}
		games, err := shardGames(dir, len(res.Games))
		if err != nil {
			return err
		}
		res.Games = append(res.Games, games...)
		data, err := os.ReadFile(filepath.Join(dir, selfplay.GamesFileName))
		if err != nil {
			return fmt.Errorf("shard %d: %w", i+1, err)
		}
		c, err := sgf.ParseString(string(data))
		if err != nil {
			return fmt.Errorf("shard %d: %s: %w", i+1, selfplay.GamesFileName, err)
		}
		coll = append(coll, c...)
		res.Summary.Seconds += shardSeconds(dir)
	}
	dw, err := strconv.Atoi(first.Meta[selfplay.MetaDW])
	if err != nil {
		return fmt.Errorf("shard 1: meta %s %q: %w", selfplay.MetaDW, first.Meta[selfplay.MetaDW], err)
	}
	if err := summariseGames(res, dw); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(env.OutDir, selfplay.GamesFileName), []byte(coll.String())); err != nil {
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

// shardGames reads the game summaries of a shard from self-play's per-chunk
// games files (games-NNNNN.json, {"games": [...]}), in chunk order, and
// renumbers them from first.
func shardGames(dir string, first int) ([]selfplay.GameSummary, error) {
	files, err := filepath.Glob(filepath.Join(dir, "games-*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var games []selfplay.GameSummary
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var chunk struct {
			Games []selfplay.GameSummary `json:"games"`
		}
		if err := json.Unmarshal(data, &chunk); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		games = append(games, chunk.Games...)
	}
	sort.SliceStable(games, func(a, b int) bool { return games[a].Index < games[b].Index })
	for i := range games {
		games[i].Index = first + i
	}
	return games, nil
}

// summariseGames fills res.Summary from res.Games and res.Files.
func summariseGames(res *selfplay.Result, dw int) error {
	s := &res.Summary
	s.DW = dw
	var outcomes []selfplay.Outcome
	for _, g := range res.Games {
		o, err := g.Outcome()
		if err != nil {
			return err
		}
		outcomes = append(outcomes, o)
	}
	s.Tally(outcomes)
	for _, f := range res.Files {
		s.Samples += f.Rows
	}
	return nil
}

var secondsRow = regexp.MustCompile(`(?m)^\| seconds \| ([0-9.]+) \|$`)

// shardSeconds reads the seconds a shard played from its report section
// (writeSelfplaySection's "seconds" row); 0 when absent.
func shardSeconds(dir string) float64 {
	data, err := os.ReadFile(filepath.Join(dir, evaluate.ReportDir, evaluate.SectionFile))
	if err != nil {
		return 0
	}
	m := secondsRow.FindSubmatch(data)
	if m == nil {
		return 0
	}
	v, _ := strconv.ParseFloat(string(m[1]), 64)
	return v
}

// copyFile copies src to dst atomically.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("merge shards: %w", err)
	}
	defer in.Close()
	return atomicfile.WriteFunc(dst, func(f *os.File) error {
		_, err := io.Copy(f, in)
		return err
	})
}
