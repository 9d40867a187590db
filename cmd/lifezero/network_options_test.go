package main

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"lifezero/internal/optflags"
	"lifezero/pipelines"
)

// netCommand is one of the commands of the network side (selfplay, train,
// match, gtp) with its stage kind ("" for gtp, which has none): the
// arguments it needs besides its options, and how to parse its flags into
// its options.
type netCommand struct {
	kind     string
	required []string
	parse    func(args []string) (any, error)
}

var netCommands = map[string]netCommand{
	"selfplay": {"selfplay", []string{"--out", "o"}, func(a []string) (any, error) {
		f, err := parseSelfplayFlags(a, io.Discard)
		if err != nil {
			return nil, err
		}
		return f.opts, nil
	}},
	"train": {"train", []string{"--out", "o", "samples"}, func(a []string) (any, error) {
		f, err := parseTrainFlags(a, io.Discard)
		if err != nil {
			return nil, err
		}
		return f.opts, nil
	}},
	"match": {"match", []string{"--black", "a", "--white", "b", "--out", "o"}, func(a []string) (any, error) {
		f, err := parseMatchFlags(a, io.Discard)
		if err != nil {
			return nil, err
		}
		return f.opts, nil
	}},
	"gtp": {"", []string{"--net", "n.lznn"}, func(a []string) (any, error) {
		f, err := parseGtpFlags(a, io.Discard)
		if err != nil {
			return nil, err
		}
		return f.opts, nil
	}},
}

// A flag and its param set the same field: the command's options equal
// the stage's, and every field with a flag differs from the command's
// defaults (so a flag that bound nothing, or a field left out of the case,
// fails). gtp, without a stage, is compared with the options written out.
func TestNetworkFlagsAndParamsAgree(t *testing.T) {
	tests := []struct {
		cmd    string
		flags  []string
		params string
		want   any // for gtp
	}{
		{cmd: "selfplay", flags: []string{"--preset", "3x32", "--board", "9", "--move-planes", "4", "--games", "5",
			"--simulations", "64", "--temperature-moves", "3", "--dirichlet-alpha", "0.5", "--dirichlet-weight", "0.1",
			"--dw", "40", "--max-moves", "50", "--games-per-file", "2", "--leaves-per-game", "4", "--workers", "3",
			"--seed", "9", "--no-reuse-tree", "--eval-cache", "100"},
			params: "{preset: 3x32, board: 9, move_planes: 4, games: 5, simulations: 64, temperature_moves: 3, " +
				"dirichlet_alpha: 0.5, dirichlet_weight: 0.1, dw: 40, max_moves: 50, games_per_file: 2, leaves_per_game: 4, " +
				"workers: 3, seed: 9, reuse_tree: false, eval_cache: 100}"},
		{cmd: "train", flags: []string{"--preset", "3x32", "--steps", "7", "--batch-size", "16", "--optimizer", "adam",
			"--lr", "0.01", "--low-lr", "0.001", "--lr-drop-step", "5", "--momentum", "0.5", "--weight-decay", "0.01",
			"--window", "2", "--max-samples", "99", "--no-augment", "--checkpoint-every", "3", "--log-every", "2", "--seed", "5"},
			params: "{preset: 3x32, steps: 7, batch_size: 16, optimizer: adam, lr: 0.01, low_lr: 0.001, lr_drop_step: 5, " +
				"momentum: 0.5, weight_decay: 0.01, window: 2, max_samples: 99, augment: false, checkpoint_every: 3, " +
				"log_every: 2, seed: 5}"},
		{cmd: "match", flags: []string{"--games", "3", "--size", "13", "--komi", "0.5", "--max-moves", "77", "--seed", "4",
			"--handicap", "2", "--fixed-colours"},
			params: "{opponent: b, games: 3, size: 13, komi: 0.5, max_moves: 77, seed: 4, handicap: 2, fixed_colours: true}"},
		{cmd: "gtp", flags: []string{"--simulations", "16", "--batch", "4", "--size", "9", "--komi", "6.5", "--seed", "3",
			"--sample-moves", "2", "--no-resign"},
			want: gtpOptions{Simulations: 16, Batch: 4, Size: 9, Komi: 6.5, Seed: 3, SampleMoves: 2, Resign: false}},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			c := netCommands[tt.cmd]
			got, err := c.parse(append(append([]string(nil), c.required...), tt.flags...))
			if err != nil {
				t.Fatalf("flags %v: %v", tt.flags, err)
			}
			want := tt.want
			if c.kind != "" {
				if want, err = stageParams(t, c.kind, tt.params); err != nil {
					t.Fatalf("params %s: %v", tt.params, err)
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("flags %v give\n%+v\nparams %s give\n%+v", tt.flags, got, tt.params, want)
			}
			def, err := c.parse(c.required)
			if err != nil {
				t.Fatal(err)
			}
			v, d := reflect.ValueOf(want), reflect.ValueOf(def)
			for i := range v.NumField() {
				f := v.Type().Field(i)
				if f.Tag.Get("flag") != "-" && reflect.DeepEqual(v.Field(i).Interface(), d.Field(i).Interface()) {
					t.Errorf("field %s is at its default: the case does not test it", f.Name)
				}
			}
		})
	}
}

// A bad value is refused by the command with a usage error naming the
// flag, and by the stage when the pipeline is loaded, naming the param at
// its line.
func TestNetworkBadOptionsNamed(t *testing.T) {
	tests := []struct {
		cmd, param, value string
	}{
		{"selfplay", "simulations", "1"},
		{"selfplay", "games", "0"},
		{"selfplay", "temperature_moves", "-1"},
		{"selfplay", "dirichlet_weight", "2"},
		{"selfplay", "leaves_per_game", "0"},
		{"selfplay", "workers", "-1"},
		{"selfplay", "eval_cache", "-1"},
		{"selfplay", "preset", "2x"},
		{"train", "batch_size", "0"},
		{"train", "steps", "-1"},
		{"train", "optimizer", "sgd"},
		{"train", "lr", "0"},
		{"train", "momentum", "1"},
		{"train", "window", "-2"},
		{"train", "checkpoint_every", "0"},
		{"match", "games", "0"},
		{"match", "size", "4"},
		{"match", "handicap", "10"},
		{"match", "max_moves", "-1"},
		{"gtp", "simulations", "-1"},
		{"gtp", "sample_moves", "-1"},
	}
	reg, err := newRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		c := netCommands[tt.cmd]
		flagName := "--" + optflags.FlagName(tt.param)
		_, err := c.parse(append(append([]string(nil), c.required...), flagName, tt.value))
		var ue *usageError
		if !errors.As(err, &ue) || !strings.HasPrefix(ue.Error(), flagName+" ") {
			t.Errorf("%s %s %s: error %v, want a usage error naming the flag", tt.cmd, flagName, tt.value, err)
		}
		if c.kind == "" {
			continue
		}
		// The param on line 7 of the file.
		file := fmt.Sprintf("name: bad\nstages:\n  s:\n    kind: %s\n    inputs: [x]\n    params:\n      %s: %s\n", c.kind, tt.param, tt.value)
		_, err = pipelines.Parse("bad.yaml", []byte(file), reg)
		want := fmt.Sprintf(`bad.yaml:7: stage "s": param %q: `, tt.param)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s param %s: %s: error %v, want %q", c.kind, tt.param, tt.value, err, want)
		}
	}
}

// The help of each command lists every option that has a flag; the
// stage's params all have one, but match's engines (opponent and
// sample_moves: the command takes whole engine command lines).
func TestNetworkHelpListsEveryParam(t *testing.T) {
	for name, c := range netCommands {
		def, err := c.parse(c.required)
		if err != nil {
			t.Fatal(err)
		}
		fields, err := pipelines.ParamFields(def)
		if err != nil {
			t.Fatal(err)
		}
		code, _, help := lifezero(t, name, "-h")
		if code != 0 {
			t.Errorf("%s -h: exit %d", name, code)
		}
		noFlag := map[string]bool{}
		typ := reflect.TypeOf(def)
		for i := range typ.NumField() {
			if f := typ.Field(i); f.Tag.Get("flag") == "-" {
				noFlag[strings.Split(f.Tag.Get("yaml"), ",")[0]] = true
			}
		}
		for _, pf := range fields {
			if noFlag[pf.Key] {
				if name != "match" {
					t.Errorf("%s: param %s has no flag", name, pf.Key)
				}
				continue
			}
			flag := optflags.FlagName(pf.Key)
			if !strings.Contains(help, "-"+flag+" ") && !strings.Contains(help, "-"+flag+"\n") && !strings.Contains(help, "-no-"+flag+"\n") {
				t.Errorf("%s -h does not list param %s (--%s or --no-%s):\n%s", name, pf.Key, flag, flag, help)
			}
		}
	}
}

// The params' canonical JSON, from which a stage's input hash is
// computed, is what it was before the commands shared the options: the
// datasets cached then stay valid. The strings are json.Marshal of the
// former params types' defaults. Params added since appear only away from
// their defaults.
func TestNetworkParamsCanonicalJSON(t *testing.T) {
	tests := []struct {
		kind, params, want string
	}{
		{"selfplay", "{}", `{"Preset":"2x16","Board":7,"MovePlanes":0,"Games":8,"Simulations":32,"TempMoves":8,` +
			`"DirichletAlpha":0.03,"DirichletWeight":0.25,"DW":0,"MaxMoves":0,"GamesPerFile":32,"LeavesPerGame":1,"Workers":0,"Seed":1}`},
		{"selfplay", "{simulations: 8, eval_cache: 0}", `{"Preset":"2x16","Board":7,"MovePlanes":0,"Games":8,"Simulations":8,"TempMoves":8,` +
			`"DirichletAlpha":0.03,"DirichletWeight":0.25,"DW":0,"MaxMoves":0,"GamesPerFile":32,"LeavesPerGame":1,"Workers":0,"Seed":1}`},
		{"selfplay", "{reuse_tree: false}", `{"Preset":"2x16","Board":7,"MovePlanes":0,"Games":8,"Simulations":32,"TempMoves":8,` +
			`"DirichletAlpha":0.03,"DirichletWeight":0.25,"DW":0,"MaxMoves":0,"GamesPerFile":32,"LeavesPerGame":1,"Workers":0,"Seed":1,"NoReuseTree":true}`},
		{"train", "{}", `{"Preset":"","Steps":200,"BatchSize":64,"Optimizer":"momentum","LR":0.02,"LowLR":0.002,"LRDropStep":0,` +
			`"Momentum":0.9,"WeightDecay":0.0001,"Window":0,"MaxSamples":0,"Augment":true,"CheckpointEvery":50,"LogEvery":10,"Seed":1}`},
		{"match", "{}", `{"Opponent":"/usr/games/gnugo --mode gtp --level 1 --chinese-rules","Games":20,"Size":9,"Komi":7.5,` +
			`"SampleMoves":8,"MaxMoves":0,"Seed":1}`},
		{"match", "{handicap: 3, fixed_colours: true}", `{"Opponent":"/usr/games/gnugo --mode gtp --level 1 --chinese-rules","Games":20,"Size":9,"Komi":7.5,` +
			`"SampleMoves":8,"MaxMoves":0,"Seed":1,"Handicap":3,"FixedColours":true}`},
	}
	for _, tt := range tests {
		checkCanonicalJSON(t, tt.kind, tt.params, tt.want)
	}
}

// The options reach the packages: every self-play, training and match
// setting lands in the package's options (written out here by hand, as
// an independent reading of the params).
func TestNetworkOptionsReachPackages(t *testing.T) {
	sp := selfplayOptions{Games: 5, Simulations: 64, TempMoves: 3, DirichletAlpha: 0.5, DirichletWeight: 0.1, DW: 40,
		MaxMoves: 50, GamesPerFile: 2, LeavesPerGame: 4, Workers: 3, Seed: 9, ReuseTree: false, EvalCache: 100}
	got := sp.options()
	if got.Games != 5 || got.Simulations != 64 || got.TempMoves != 3 || got.DirichletAlpha != 0.5 || got.DirichletWeight != 0.1 ||
		got.MaxMoves != 50 || got.GamesPerFile != 2 || got.LeavesPerGame != 4 || got.Workers != 3 || got.Seed != 9 ||
		got.ReuseTree || got.CacheEntries != 100 {
		t.Errorf("selfplay options %+v give %+v", sp, got)
	}
	tr := trainOptions{Steps: 7, BatchSize: 16, Optimizer: "adam", LR: 0.01, LowLR: 0.001, LRDropStep: 5, Momentum: 0.5,
		WeightDecay: 0.01, Augment: false, CheckpointEvery: 3, LogEvery: 2, Seed: 5}
	n := tr.options()
	if n.Steps != 7 || n.BatchSize != 16 || n.Train.Optimizer != "adam" || n.Train.LearningRate != 0.01 || n.LowLR != 0.001 ||
		n.LRDropStep != 5 || n.Train.Momentum != 0.5 || n.Train.WeightDecay != 0.01 || n.Augment || n.CheckpointEvery != 3 ||
		n.LogEvery != 2 || n.Train.Seed != 5 || n.Seed != 6 {
		t.Errorf("train options %+v give %+v", tr, n)
	}
	mo := matchOptions{Games: 3, Size: 13, Komi: 0.5, MaxMoves: 77, Seed: 4, Handicap: 2, FixedColours: true}
	m := mo.options("a", "b", "o")
	if m.A != "a" || m.B != "b" || m.OutDir != "o" || m.Games != 3 || m.Size != 13 || m.Komi != 0.5 || m.MaxMoves != 77 ||
		m.Seed != 4 || m.Handicap != 2 || !m.FixedColours {
		t.Errorf("match options %+v give %+v", mo, m)
	}
	g := gtpOptions{Size: 0, Komi: 6.5, Seed: 3, SampleMoves: 2, Resign: false}
	if e := g.engineOptions("v", 7); e.Size != 7 || e.Komi != 6.5 || e.Seed != 3 || e.SampleMoves != 2 || !e.NoResign || e.Version != "v" {
		t.Errorf("gtp options %+v give %+v", g, e)
	}
	if e := (&gtpOptions{Size: 9}).engineOptions("v", 7); e.Size != 9 {
		t.Errorf("--size 9 with a 7x7 network: engine size %d, want 9", e.Size)
	}
}
