package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"lifezero/internal/optflags"
	"lifezero/pipelines"
)

// optionsCommand is a command whose flags are a stage kind's params: how
// to parse its flags into its options, and the arguments it needs besides.
type optionsCommand struct {
	kind     string
	args     []string // the command line's name, as "lifezero -h" takes it
	required []string // the command-only arguments it needs
	parse    func(args []string) (any, error)
}

func optionsCommands() map[string]optionsCommand {
	return map[string]optionsCommand{
		"tsumego train": {"tsumego-train", []string{"tsumego", "train"}, []string{"--out", "o", "coll"},
			func(a []string) (any, error) {
				f, err := parseTsumegoFlags(a, io.Discard)
				return opts(f, err, func() any { return f.opts })
			}},
		"features train": {"features-train", []string{"features", "train"}, []string{"--model", "bt", "--data", "d", "--out", "o"},
			func(a []string) (any, error) {
				f, err := parseFeaturesTrainFlags(a, io.Discard)
				return opts(f, err, func() any { return f.opts })
			}},
		"features build": {"movecands", []string{"features", "build"}, []string{"--out", "o", "games"},
			func(a []string) (any, error) {
				f, err := parseFeaturesBuildFlags(a, io.Discard)
				return opts(f, err, func() any { return f.opts })
			}},
		"movepred": {"movepred", []string{"movepred"}, []string{"--data", "d", "--model", "m"},
			func(a []string) (any, error) {
				f, err := parseMovepredFlags(a, io.Discard)
				return opts(f, err, func() any { return f.opts })
			}},
		"records import": {"records-import", []string{"records", "import"}, []string{"--out", "o", "x.sgf"},
			func(a []string) (any, error) {
				f, err := parseRecordsImportFlags(a, io.Discard)
				return opts(f, err, func() any { return f.opts })
			}},
	}
}

// opts returns get() unless err is set.
func opts[F any](f *F, err error, get func() any) (any, error) {
	if err != nil {
		return nil, err
	}
	return get(), nil
}

// stageParams decodes params written in YAML as a pipeline file gives them
// onto the kind's defaults.
func stageParams(t *testing.T, kind, params string) (any, error) {
	t.Helper()
	reg, err := newRegistry()
	if err != nil {
		t.Fatal(err)
	}
	k, ok := reg.Lookup(kind)
	if !ok {
		t.Fatalf("no kind %s", kind)
	}
	var node yaml.Node
	if err := yaml.Unmarshal([]byte(params), &node); err != nil {
		t.Fatal(err)
	}
	return pipelines.DecodeStruct(k.Params, node.Content[0])
}

// A flag and its param set the same field: the command's options equal the
// stage's, and differ from the command's defaults (so a flag that bound
// nothing fails).
func TestFlagsAndParamsAgree(t *testing.T) {
	tests := []struct {
		cmd    string
		flags  []string
		params string
	}{
		{"tsumego train", []string{"--folds", "4", "--no-ld", "--ladders", "--iterations", "7", "--proofs", "100", "--killall", "3", "--variations", "5"},
			"{folds: 4, ld: false, ladders: true, iterations: 7, proofs: 100, killall: 3, variations: 5}"},
		{"features train", []string{"--model", "lfr", "--epochs", "3", "--factors", "5", "--learning-rate", "0.01", "--reg-w", "0.5", "--reg-v", "0.25",
			"--sampling", "softmax", "--negatives", "9", "--temperature", "2", "--optimizer", "adagrad", "--tolerance", "0.1", "--seed", "8",
			"--no-in-memory", "--shuffle-buffer", "64"},
			"{model: lfr, epochs: 3, factors: 5, learning_rate: 0.01, reg_w: 0.5, reg_v: 0.25, sampling: softmax, negatives: 9, " +
				"temperature: 2, optimizer: adagrad, tolerance: 0.1, seed: 8, in_memory: false, shuffle_buffer: 64}"},
		{"features build", []string{"--from-date", "2003", "--to-date", "2009-12", "--max-games", "10", "--positions-per-game", "12", "--seed", "4",
			"--learn-diamonds", "10", "--learn-shapes", "11", "--no-pattern3-liberties", "--rows-per-file", "99", "--appended-only"},
			"{from_date: \"2003\", to_date: 2009-12, max_games: 10, positions_per_game: 12, seed: 4, learn_diamonds: 10, learn_shapes: 11, " +
				"pattern3_liberties: false, rows_per_file: 99, appended_only: true}"},
		{"movepred", []string{"--random", "--seed", "5", "--phase-size", "20", "--frequencies"},
			"{random: true, seed: 5, phase_size: 20, frequencies: true}"},
		{"records import", []string{"--from-date", "2009", "--to-date", "2010-01-31", "--max-games", "25", "--rows-per-file", "7", "--skip-bad", "--append"},
			"{from_date: \"2009\", to_date: 2010-01-31, max_games: 25, rows_per_file: 7, skip_bad: true, append: true}"},
	}
	cmds := optionsCommands()
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			c := cmds[tt.cmd]
			got, err := c.parse(append(append([]string(nil), c.required...), tt.flags...))
			if err != nil {
				t.Fatalf("flags %v: %v", tt.flags, err)
			}
			want, err := stageParams(t, c.kind, tt.params)
			if err != nil {
				t.Fatalf("params %s: %v", tt.params, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("flags %v give\n%+v\nparams %s give\n%+v", tt.flags, got, tt.params, want)
			}
			def, err := c.parse(c.required) // the command's defaults
			if err != nil {
				t.Fatal(err)
			}
			v, d := reflect.ValueOf(want), reflect.ValueOf(def)
			for i := range v.NumField() {
				if reflect.DeepEqual(v.Field(i).Interface(), d.Field(i).Interface()) {
					t.Errorf("%s: field %s is at its default: the case does not test it", tt.cmd, v.Type().Field(i).Name)
				}
			}
		})
	}
}

// A bad value is refused by the command with a usage error naming the flag,
// and by the stage when the pipeline is loaded, naming the param at its
// line.
func TestBadOptionsNamed(t *testing.T) {
	tests := []struct {
		cmd, kind    string // cmd "": a kind without a command
		param, value string
	}{
		{"tsumego train", "", "folds", "1"},
		{"tsumego train", "", "iterations", "0"},
		{"tsumego train", "", "proofs", "-1"},
		{"tsumego train", "", "killall", "-2"},
		{"tsumego train", "", "variations", "-3"},
		{"features train", "", "model", "svm"},
		{"features train", "", "epochs", "-1"},
		{"features train", "", "learning_rate", "-0.1"},
		{"features train", "", "reg_v", "-1"},
		{"features train", "", "sampling", "hard"},
		{"features train", "", "optimizer", "adam"},
		{"features train", "", "shuffle_buffer", "-1"},
		{"features build", "", "from_date", "2010-1"},
		{"features build", "", "to_date", "2010-02-30"},
		{"features build", "", "max_games", "-1"},
		{"features build", "", "rows_per_file", "-5"},
		{"movepred", "", "phase_size", "0"},
		{"records import", "", "from_date", "2010-13-45"},
		{"records import", "", "to_date", "20100"},
		{"records import", "", "max_games", "-3"},
		{"", "rzt", "budget", "0"},
		{"", "rzt", "timeout", "soon"},
		{"", "rzt", "evaluator", "oracle"},
		{"", "owl", "level", "11"},
		{"", "owl", "gnugo", `""`},
	}
	reg, err := newRegistry()
	if err != nil {
		t.Fatal(err)
	}
	cmds := optionsCommands()
	for _, tt := range tests {
		kind := tt.kind
		if tt.cmd != "" {
			c := cmds[tt.cmd]
			kind = c.kind
			flagName := "--" + optflags.FlagName(tt.param)
			_, err := c.parse(append(append([]string(nil), c.required...), flagName, tt.value))
			var ue *usageError
			if !errors.As(err, &ue) || !strings.HasPrefix(ue.Error(), flagName+" ") {
				t.Errorf("%s %s %s: error %v, want a usage error naming the flag", tt.cmd, flagName, tt.value, err)
			}
		}
		// The param on line 7 of the file.
		file := fmt.Sprintf("name: bad\nstages:\n  s:\n    kind: %s\n    inputs: [x]\n    params:\n      %s: %s\n", kind, tt.param, tt.value)
		_, err := pipelines.Parse("bad.yaml", []byte(file), reg)
		want := fmt.Sprintf(`bad.yaml:7: stage "s": param %q: `, tt.param)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s param %s: %s: error %v, want %q", kind, tt.param, tt.value, err, want)
		}
	}
}

// Every param of a command's stage is one of its flags, and its help
// lists it.
func TestCommandHelpListsEveryParam(t *testing.T) {
	reg, err := newRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range optionsCommands() {
		k, _ := reg.Lookup(c.kind)
		fields, err := pipelines.ParamFields(k.Params)
		if err != nil {
			t.Fatal(err)
		}
		code, _, help := lifezero(t, append(c.args, "-h")...)
		if code != 0 {
			t.Errorf("%s -h: exit %d", name, code)
		}
		for _, pf := range fields {
			flag := optflags.FlagName(pf.Key)
			if !strings.Contains(help, "-"+flag+" ") && !strings.Contains(help, "-"+flag+"\n") && !strings.Contains(help, "-no-"+flag+"\n") {
				t.Errorf("%s -h does not list param %s (--%s or --no-%s):\n%s", name, pf.Key, flag, flag, help)
			}
		}
	}
}

// The bad date of issue 12's bad-input cases, now refused before any
// import as a usage error naming the flag.
func TestRecordsOptions(t *testing.T) {
	code, _, errs := lifezero(t, "records", "import", "--out", t.TempDir(), "--from-date", "2010-13-45", "x.sgf")
	if want := `--from-date "2010-13-45": month 13 is not 01..12`; code != 2 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr\n%s\nwant exit 2 and %q", code, errs, want)
	}
}

// features list and features build shape the built-in set with the same
// flag: without the liberties the 3x3 patterns are fewer.
func TestFeaturesListPattern3Liberties(t *testing.T) {
	count := func(args ...string) int {
		code, out, errs := lifezero(t, append([]string{"features", "list"}, args...)...)
		if code != 0 {
			t.Fatalf("features list %v: exit %d: %s", args, code, errs)
		}
		return strings.Count(out, "\n") - 1 // a header line, then a line per id
	}
	with, without := count(), count("--no-pattern3-liberties")
	e, err := defaultFeatureSetOptions().builtinSet()
	if err != nil {
		t.Fatal(err)
	}
	if with != e.NumFeatures() || without >= with {
		t.Errorf("features list: %d lines with liberties (the set has %d ids), %d without", with, e.NumFeatures(), without)
	}
}

// records search checks its options before reading the pattern or the
// index, naming the flag.
func TestRecordsSearchOptions(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--limit", "-1"}, "--limit -1: want 0 (all) or more"},
		{[]string{"--workers", "0"}, "--workers 0: want at least 1"},
	} {
		args := append([]string{"records", "search", "--index", "no-index"}, append(tt.args, "no-pattern.txt")...)
		if code, _, errs := lifezero(t, args...); code != 2 || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stderr\n%s\nwant exit 2 and %q", args, code, errs, tt.want)
		}
	}
	o := defaultRecordsSearchOptions()
	o.Swap, o.Symmetry = false, false
	if got := o.searchOptions(); !got.NoSwap || !got.NoSymmetry || got.Limit != 20 || got.Workers != 1 {
		t.Errorf("--no-swap --no-symmetry give %+v", got)
	}
}

// The params' JSON is a stage's input hash: a renamed, reordered or newly
// hashed field would rerun every cached output of the kind. The want column
// was marshalled by the params types before the options types replaced them
// (commit 94e3516); change it only together with the kind's Version.
func TestOptionsHashAsBefore(t *testing.T) {
	tests := []struct{ kind, params, want string }{
		{"tsumego-train", "{}", `{"Folds":9,"LD":true,"Ladders":false,"Iterations":200,"Proofs":0,"KillAll":0}`},
		{"features-train", "{}", `{"Model":"bt","Epochs":0,"Factors":0,"LearningRate":0,"RegW":0.0001,"RegV":0.001,"Sampling":"","Negatives":0,"Temperature":0,"Optimizer":"","Tolerance":0.000001,"Seed":1,"InMemory":true,"ShuffleBuffer":0}`},
		{"features-train", "{model: lfr, in_memory: false}", `{"Model":"lfr","Epochs":0,"Factors":0,"LearningRate":0,"RegW":0.0001,"RegV":0.001,"Sampling":"","Negatives":0,"Temperature":0,"Optimizer":"","Tolerance":0.000001,"Seed":1,"InMemory":false,"ShuffleBuffer":0}`},
		{"movecands", "{}", `{"FromDate":"","ToDate":"","MaxGames":0,"PositionsPerGame":0,"Seed":1,"LearnDiamonds":0,"LearnShapes":0,"Pattern3Liberties":true,"RowsPerFile":0}`},
		{"movecands", `{appended_only: true, from_date: "2009"}`, `{"FromDate":"2009","ToDate":"","MaxGames":0,"PositionsPerGame":0,"Seed":1,"LearnDiamonds":0,"LearnShapes":0,"Pattern3Liberties":true,"RowsPerFile":0,"AppendedOnly":true}`},
		{"movepred", "{}", `{"Random":true,"Seed":1,"PhaseSize":50,"Frequencies":true}`},
		{"records-import", "{}", `{"FromDate":"","ToDate":"","MaxGames":0,"RowsPerFile":0,"SkipBad":false}`},
		{"records-import", "{append: true, max_games: 5}", `{"FromDate":"","ToDate":"","MaxGames":5,"RowsPerFile":0,"SkipBad":false,"Append":true}`},
		{"rzt", "{}", `{"Budget":500000,"Evaluator":"ldb","Timeout":""}`},
		{"owl", "{}", `{"GNUGo":"/usr/games/gnugo","Level":10}`},
		{"report", "{}", `{"Title":""}`},
	}
	for _, tt := range tests {
		checkCanonicalJSON(t, tt.kind, tt.params, tt.want)
	}
}

// checkCanonicalJSON checks that params, decoded onto kind's defaults,
// marshal (the stage's input hash) as want: what they marshalled as before
// the command shared the stage's options type.
func checkCanonicalJSON(t *testing.T, kind, params, want string) {
	t.Helper()
	p, err := stageParams(t, kind, params)
	if err != nil {
		t.Fatalf("%s %s: %v", kind, params, err)
	}
	got, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s params %s hash as\n%s\nwant (as before)\n%s", kind, params, got, want)
	}
}

// features build --appended-only reads, like the movecands stage's
// appended_only, only the games the last append added.
func TestFeaturesBuildAppendedOnly(t *testing.T) {
	dir := t.TempDir()
	games := dir + "/games"
	run := func(args ...string) string {
		t.Helper()
		code, out, errs := lifezero(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, errs)
		}
		return out
	}
	run("records", "import", "--out", games, "--to-date", "2009", "--max-games", "10", "../../samples/games")
	run("records", "import", "--append", "--out", games, "--from-date", "2010", "--max-games", "5", "../../samples/games")
	for _, tt := range []struct {
		flags []string
		want  string
	}{
		{nil, "from 15 of 15 sampled games"},
		{[]string{"--appended-only"}, "from 5 of 5 sampled games"},
	} {
		out := run(append(append([]string{"features", "build", "--out", t.TempDir(), "--positions-per-game", "1"}, tt.flags...), games)...)
		if !strings.Contains(out, tt.want) {
			t.Errorf("features build %v:\n%s\nwant %q", tt.flags, out, tt.want)
		}
	}
	code, _, errs := lifezero(t, "features", "build", "--out", t.TempDir(), "--appended-only", "../../samples/games")
	if code != 1 || !strings.Contains(errs, "--appended-only: ") || !strings.Contains(errs, "no append") {
		t.Errorf("--appended-only on SGF files: exit %d, stderr\n%s", code, errs)
	}
}
