package main

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"lifezero/evaluate"
	"lifezero/pipelines"
)

// stageSolveConfig decodes solve-stage params written in YAML as a
// pipeline file gives them and returns their solve config.
func stageSolveConfig(t *testing.T, params string) (evaluate.SolveConfig, error) {
	t.Helper()
	var node yaml.Node
	if err := yaml.Unmarshal([]byte(params), &node); err != nil {
		t.Fatal(err)
	}
	p, err := pipelines.DecodeStruct(solveKind().Params, node.Content[0])
	if err != nil {
		return evaluate.SolveConfig{}, err
	}
	o := p.(solveOptions)
	return o.config()
}

// The command and the stage read the same settings into the same config:
// every option of one is an option of the other, under the same name.
func TestSolveFlagsAndParamsAgree(t *testing.T) {
	tests := []struct {
		name   string
		flags  []string
		params string
	}{
		{"defaults", nil, "{}"},
		{"pattern table variants", []string{"--rzt", "linear", "--rzt-nt", "--rzt-sym"}, "{rzt: linear, rzt_nt: true, rzt_sym: true}"},
		{"ablations", []string{"--no-rz", "--no-tt", "--rzt", "none", "--algo", "dfs"}, "{rz: false, tt: false, rzt: none, algo: dfs}"},
		{"limits", []string{"--budget", "77", "--timeout", "90s", "--max-memory", "200MB", "--workers", "3", "--threads", "2"},
			"{budget: 77, timeout: 90s, max_memory: 200MB, workers: 3, threads: 2}"},
		{"net mode and evaluator", []string{"--net-mode", "value", "--evaluator", "uniform"}, "{net_mode: value, evaluator: uniform}"},
		{"search shaping", []string{"--depth-discount", "0.8", "--fpu-reduction", "0.5"}, "{depth_discount: 0.8, fpu_reduction: 0.5}"},
		{"search shaping off", []string{"--depth-discount", "1", "--fpu-reduction", "0"}, "{depth_discount: 1, fpu_reduction: 0}"},
		{"portfolio", []string{"--portfolio", "2", "--threads", "2"}, "{portfolio: 2, threads: 2}"},
		{"portfolio sharing its table", []string{"--portfolio", "2", "--portfolio-share"}, "{portfolio: 2, portfolio_share: true}"},
		{"safety off", []string{"--no-safety"}, "{safety: false}"},
		{"proof bonus", []string{"--proof-bonus", "0.25"}, "{proof_bonus: 0.25}"},
		{"proof bonus off", []string{"--proof-bonus", "0"}, "{proof_bonus: 0}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := parseSolveFlags(append([]string{"x.json"}, tt.flags...), io.Discard)
			if err != nil {
				t.Fatalf("flags %v: %v", tt.flags, err)
			}
			cfg, err := stageSolveConfig(t, tt.params)
			if err != nil {
				t.Fatalf("params %s: %v", tt.params, err)
			}
			if !reflect.DeepEqual(f.cfg, cfg) {
				t.Errorf("flags %v give\n%+v\nparams %s give\n%+v", tt.flags, f.cfg, tt.params, cfg)
			}
		})
	}
}

// A bad value is refused by both, naming the flag or the param.
func TestSolveOptionErrors(t *testing.T) {
	tests := []struct {
		flag, value, param string
	}{
		{"budget", "0", "budget"},
		{"workers", "0", "workers"},
		{"timeout", "soon", "timeout"},
		{"max-memory", "lots", "max_memory"},
		{"rzt", "hash", "rzt"},
		{"net-mode", "policy", "net_mode"},
		{"net-with", "policy", "net_with"},
		{"net-mix", "all", "net_mix"},
		{"net-mix", "value", "net_mix"}, // without net_with
		{"batch", "-1", "batch"},
		{"playouts", "-1", "playouts"},
		{"playout-weight", "0.5", "playout_weight"}, // without playouts
		{"algo", "bfs", "algo"},
		{"depth-discount", "0", "depth_discount"},
		{"depth-discount", "1.5", "depth_discount"},
		{"fpu-reduction", "-0.1", "fpu_reduction"},
		{"proof-bonus", "-0.1", "proof_bonus"},
		{"portfolio", "-1", "portfolio"},
		{"portfolio", "9", "portfolio"},
	}
	for _, tt := range tests {
		_, err := parseSolveFlags([]string{"x.json", "--" + tt.flag, tt.value}, io.Discard)
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "--"+tt.flag+" ") {
			t.Errorf("--%s %s: error %v, want a usage error naming the flag", tt.flag, tt.value, err)
		}
		_, err = stageSolveConfig(t, "{"+tt.param+": "+tt.value+"}")
		var pe *pipelines.ParamError
		if !errors.As(err, &pe) || pe.Key != tt.param {
			t.Errorf("param %s: %s: error %v, want a ParamError for %s", tt.param, tt.value, err, tt.param)
		}
	}
}

// Every option is both a param and a flag.
func TestSolveOptionsAreFlags(t *testing.T) {
	fields, err := pipelines.ParamFields(defaultSolveOptions())
	if err != nil {
		t.Fatal(err)
	}
	fs := newFlagSet("solve", "", io.Discard)
	o := defaultSolveOptions()
	if err := o.bindFlags(fs); err != nil {
		t.Fatal(err)
	}
	for _, pf := range fields {
		if fs.Lookup(flagName(pf.Key)) == nil && fs.Lookup("no-"+flagName(pf.Key)) == nil {
			t.Errorf("param %s has no flag", pf.Key)
		}
	}
}

// The search-shaping options reach the solver: the defaults as
// evaluate's, fpu_reduction and proof_bonus 0 as none at all (SolveConfig
// reads its own 0 as the default), and the judge's safety on unless turned
// off.
func TestSolveShapingReachesSolver(t *testing.T) {
	for _, tt := range []struct {
		params             string
		discount, fpuReduc float64
		safety             bool
		proofBonus         float64
	}{
		// Unset, the FPU reduction is the evaluator's: off with the one
		// search's ldb-nakade, DefaultFPUReduction with ldb, which leads a
		// portfolio.
		{"{}", evaluate.DefaultDepthDiscount, 0, true, evaluate.DefaultProofBonus},
		{"{evaluator: ldb}", evaluate.DefaultDepthDiscount, evaluate.DefaultFPUReduction, true, evaluate.DefaultProofBonus},
		{"{portfolio: 3, threads: 2}", evaluate.DefaultDepthDiscount, evaluate.DefaultFPUReduction, true, evaluate.DefaultProofBonus},
		{"{evaluator: ldb-nakade, fpu_reduction: 0.3}", evaluate.DefaultDepthDiscount, 0.3, true, evaluate.DefaultProofBonus},
		{"{depth_discount: 0.75, fpu_reduction: 0.5, proof_bonus: 0.2}", 0.75, 0.5, true, 0.2},
		{"{evaluator: ldb, depth_discount: 1, fpu_reduction: 0, safety: false, proof_bonus: 0}", 1, 0, false, 0},
		{"{portfolio: 2, threads: 2, fpu_reduction: 0}", evaluate.DefaultDepthDiscount, 0, true, evaluate.DefaultProofBonus},
	} {
		cfg, err := stageSolveConfig(t, tt.params)
		if err != nil {
			t.Fatalf("%s: %v", tt.params, err)
		}
		o := cfg.SolverOptions()
		if o.DepthDiscount != tt.discount || o.FPUReduction != tt.fpuReduc || o.Safety != tt.safety || o.ProofBonus != tt.proofBonus {
			t.Errorf("%s: solver gets depth discount %v, FPU reduction %v, safety %v and proof bonus %v, want %v, %v, %v and %v",
				tt.params, o.DepthDiscount, o.FPUReduction, o.Safety, o.ProofBonus, tt.discount, tt.fpuReduc, tt.safety, tt.proofBonus)
		}
	}
}
