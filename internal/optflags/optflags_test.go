package optflags

import (
	"flag"
	"io"
	"reflect"
	"strconv"
	"testing"
	"time"

	"lifezero/pipelines"
)

type inner struct {
	Depth int `yaml:"depth" help:"search depth"`
}

type options struct {
	inner
	Budget   int           `yaml:"budget" help:"most nodes"`
	Seed     uint64        `yaml:"seed" help:"random seed"`
	Alpha    float64       `yaml:"dirichlet_alpha" help:"noise"`
	Algo     string        `yaml:"algo" help:"form"`
	Timeout  time.Duration `yaml:"timeout" help:"limit"`
	RZ       bool          `yaml:"rz" help:"use zones"`
	Verbose  bool          `yaml:"verbose" help:"talk"`
	Excludes []string      `yaml:"exclude" help:"left out"`
	Inputs   string        `yaml:"inputs" flag:"-" help:"stage only"`
	Hidden   int           `yaml:"-"`
}

func TestBindParsesEveryKind(t *testing.T) {
	tests := []struct {
		args []string
		want options
	}{
		{nil, options{inner{3}, 100, 1, 0.03, "mcts", 0, true, false, []string{"a"}, "", 0}},
		{[]string{"--depth", "5", "--budget", "7", "--seed", "9", "--dirichlet-alpha", "0.5", "--algo", "dfs",
			"--timeout", "2s", "--no-rz", "--verbose", "--exclude", "x,y", "--exclude", "z"},
			options{inner{5}, 7, 9, 0.5, "dfs", 2 * time.Second, false, true, []string{"x", "y", "z"}, "", 0}},
		{[]string{"--no-rz=false"}, options{inner{3}, 100, 1, 0.03, "mcts", 0, true, false, []string{"a"}, "", 0}},
		{[]string{"--no-rz=true"}, options{inner{3}, 100, 1, 0.03, "mcts", 0, false, false, []string{"a"}, "", 0}},
	}
	for _, tc := range tests {
		o := options{inner{3}, 100, 1, 0.03, "mcts", 0, true, false, []string{"a"}, "", 0}
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		if err := Bind(fs, &o); err != nil {
			t.Fatal(err)
		}
		if err := fs.Parse(tc.args); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if !reflect.DeepEqual(o, tc.want) {
			t.Errorf("%v: got %+v, want %+v", tc.args, o, tc.want)
		}
	}
}

func TestBindSkipsAndNames(t *testing.T) {
	var o options
	o.RZ = true
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	if err := Bind(fs, &o); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"inputs", "hidden", "Hidden", "rz"} {
		if fs.Lookup(name) != nil {
			t.Errorf("--%s bound; want no such flag", name)
		}
	}
	if f := fs.Lookup("dirichlet-alpha"); f == nil || f.Usage != "noise" {
		t.Errorf("--dirichlet-alpha = %+v, want the help tag as usage", f)
	}
	if fs.Lookup("no-rz") == nil {
		t.Error("--no-rz missing for a bool that defaults to true")
	}
}

func TestBindRejects(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	if err := Bind(fs, options{}); err == nil {
		t.Error("Bind(struct value) = nil error, want one")
	}
	type bad struct {
		M map[string]int `yaml:"m"`
	}
	if err := Bind(fs, &bad{}); err == nil {
		t.Error("Bind(map field) = nil error, want one")
	}
}

func TestErrorNamesTheFlag(t *testing.T) {
	msg, ok := Error(&pipelines.ParamError{Key: "max_memory", Msg: "bad size"})
	if !ok || msg != "--max-memory bad size" {
		t.Errorf("Error = %q, %v", msg, ok)
	}
	if _, ok := Error(io.EOF); ok {
		t.Error("Error(io.EOF) ok, want not a param error")
	}
}

// A *float64 option stays nil unless its flag is given, 0 included, and
// a value that is no number is refused and leaves it nil.
func TestBindOptionalFloat(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		want    string // "" for nil
		wantErr bool
	}{
		{nil, "", false},
		{[]string{"--scale", "0"}, "0", false},
		{[]string{"--scale", "0.25"}, "0.25", false},
		{[]string{"--scale", "x"}, "", true},
	} {
		var o struct {
			Scale *float64 `yaml:"scale" help:"factor"`
		}
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		if err := Bind(fs, &o); err != nil {
			t.Fatal(err)
		}
		if err := fs.Parse(tc.args); (err != nil) != tc.wantErr {
			t.Fatalf("%v: error %v, want one: %v", tc.args, err, tc.wantErr)
		}
		got := ""
		if o.Scale != nil {
			got = strconv.FormatFloat(*o.Scale, 'g', -1, 64)
		}
		if got != tc.want {
			t.Errorf("%v: scale %q, want %q", tc.args, got, tc.want)
		}
	}
}
