package pipelines

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"lifezero/internal/readfile"
)

// Pipeline is a loaded and validated pipeline file.
type Pipeline struct {
	Name        string
	Description string
	File        string   // the pipeline file, as given to Load
	Dir         string   // its directory: relative paths in the file resolve against it
	Workdir     string   // where stage outputs go: <Workdir>/<stage>/
	Stages      []*Stage // in file order
	order       []*Stage // topological order, ties broken by file order
}

// Stage is one stage of a pipeline.
type Stage struct {
	Name   string
	Kind   *Kind
	Inputs []Input
	Params any // decoded by the kind: Kind.Params' type, or what DecodeParams returns
	Line   int // line of the stage's name in the pipeline file
	Doc    string
	// Shards is the number of independent pieces a shardable kind's work is
	// split into (see Sharding); 0 or 1: one piece, no split.
	Shards int
	deps   []*Stage
}

// Input is one input of a stage: the output of an earlier stage or a path.
type Input struct {
	Stage string // producing stage, for "stage:NAME"
	Path  string // for a path input: resolved against the pipeline's directory
	Raw   string // as written in the file
	Line  int
}

// StagePrefix marks an input that is an earlier stage's output.
const StagePrefix = "stage:"

// Error is a problem in a pipeline file, at a line.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

var (
	stageNameRE     = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)
	yamlLineRE      = regexp.MustCompile(`line (\d+): `)
	topKeys         = []string{"name", "description", "workdir", "stages"}
	stageKeys       = []string{"kind", "doc", "inputs", "params", "shards"}
	requiredTop     = []string{"name", "stages"}
	requiredInStage = []string{"kind"}
)

// Load reads and validates the pipeline file at path.
func Load(path string, reg *Registry) (*Pipeline, error) {
	data, err := readfile.Read(path, readfile.MaxPipeline, ".yaml", ".yml")
	if err != nil {
		return nil, fmt.Errorf("pipelines: %w", err)
	}
	return Parse(path, data, reg)
}

// Parse validates a pipeline file's content; file names it in errors and its
// directory anchors relative paths. All problems found are returned together
// (joined, in line order), each an *Error.
func Parse(file string, data []byte, reg *Registry) (*Pipeline, error) {
	p := &Pipeline{File: file, Dir: filepath.Dir(file)}
	ps := &parser{file: file, reg: reg}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line := 1
		if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
			line, _ = strconv.Atoi(m[1])
		}
		msg := yamlLineRE.ReplaceAllString(strings.TrimPrefix(err.Error(), "yaml: "), "")
		return nil, &Error{File: file, Line: line, Msg: "invalid YAML: " + msg}
	}
	if len(doc.Content) == 0 {
		return nil, &Error{File: file, Line: 1, Msg: "empty pipeline file: want name and stages"}
	}
	ps.top(p, doc.Content[0])
	if len(ps.errs) == 0 {
		ps.link(p)
	}
	if len(ps.errs) > 0 {
		return nil, ps.err()
	}
	return p, nil
}

type parser struct {
	file string
	reg  *Registry
	errs []*Error
}

func (ps *parser) add(line int, format string, args ...any) {
	ps.errs = append(ps.errs, &Error{File: ps.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (ps *parser) err() error {
	sort.SliceStable(ps.errs, func(i, j int) bool { return ps.errs[i].Line < ps.errs[j].Line })
	errs := make([]error, len(ps.errs))
	for i, e := range ps.errs {
		errs[i] = e
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// pairs checks that n is a mapping with known, unique, scalar keys and calls
// f for each pair. where prefixes messages ("" or `stage "x": `).
func (ps *parser) pairs(n *yaml.Node, where, what string, known, required []string, f func(k, v *yaml.Node)) {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		ps.add(n.Line, "%s%s must be a mapping, got %s", where, what, nodeKindName(n))
		return
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolve(n.Content[i+1])
		switch {
		case k.Kind != yaml.ScalarNode:
			ps.add(k.Line, "%skeys of %s must be plain names", where, what)
		case known != nil && !contains(known, k.Value):
			ps.add(k.Line, "%sunknown key %q in %s (known: %s)", where, k.Value, what, strings.Join(known, ", "))
		case seen[k.Value] != 0:
			ps.add(k.Line, "%s%q given twice in %s (first on line %d)", where, k.Value, what, seen[k.Value])
		default:
			seen[k.Value] = k.Line
			f(k, v)
		}
	}
	for _, r := range required {
		if seen[r] == 0 {
			ps.add(n.Line, "%smissing required key %q in %s", where, r, what)
		}
	}
}

func (ps *parser) top(p *Pipeline, root *yaml.Node) {
	var stagesNode *yaml.Node
	workdir := ""
	ps.pairs(root, "", "the pipeline", topKeys, requiredTop, func(k, v *yaml.Node) {
		switch k.Value {
		case "name":
			if s, ok := ps.scalar(v, "", "name"); ok {
				if !stageNameRE.MatchString(s) {
					ps.add(v.Line, "name %q: use letters, digits, '.', '_' and '-' (it names the default workdir)", s)
				}
				p.Name = s
			}
		case "description":
			p.Description, _ = ps.scalar(v, "", "description")
		case "workdir":
			workdir, _ = ps.scalar(v, "", "workdir")
		case "stages":
			stagesNode = v
		}
	})
	if workdir == "" && p.Name != "" {
		workdir = filepath.Join("runs", p.Name)
	}
	p.Workdir = resolvePath(p.Dir, workdir)
	if stagesNode == nil {
		return
	}
	ps.pairs(stagesNode, "", "stages", nil, nil, func(k, v *yaml.Node) {
		if st := ps.stage(p, k, v); st != nil {
			p.Stages = append(p.Stages, st)
		}
	})
	if stagesNode.Kind == yaml.MappingNode && len(stagesNode.Content) == 0 {
		ps.add(stagesNode.Line, "stages is empty: name at least one stage")
	}
}

func (ps *parser) scalar(v *yaml.Node, where, key string) (string, bool) {
	if v.Kind != yaml.ScalarNode || isNull(v) {
		ps.add(v.Line, "%s%s must be a string, got %s", where, key, nodeKindName(v))
		return "", false
	}
	return v.Value, true
}

func (ps *parser) stage(p *Pipeline, k, v *yaml.Node) *Stage {
	st := &Stage{Name: k.Value, Line: k.Line}
	where := fmt.Sprintf("stage %q: ", st.Name)
	if !stageNameRE.MatchString(st.Name) {
		ps.add(k.Line, "%sthe name must be letters, digits, '.', '_' or '-' (it names the output directory)", where)
		return nil
	}
	var paramsNode, inputsNode, shardsNode *yaml.Node
	ps.pairs(v, where, "the stage", stageKeys, requiredInStage, func(key, val *yaml.Node) {
		switch key.Value {
		case "kind":
			name, ok := ps.scalar(val, where, "kind")
			if !ok {
				return
			}
			kind, found := ps.reg.Lookup(name)
			if !found {
				ps.add(val.Line, "%sunknown kind %q (kinds: %s)", where, name, strings.Join(ps.reg.Names(), ", "))
				return
			}
			st.Kind = kind
		case "doc":
			st.Doc, _ = ps.scalar(val, where, "doc")
		case "inputs":
			inputsNode = val
		case "params":
			paramsNode = val
		case "shards":
			shardsNode = val
		}
	})
	if inputsNode != nil {
		st.Inputs = ps.inputs(p, inputsNode, where)
	}
	if st.Kind == nil { // reported above
		return st
	}
	params, err := st.Kind.decode(paramsNode)
	if err != nil {
		line := st.Line
		if paramsNode != nil {
			line = paramsNode.Line
		}
		ps.paramErrors(err, line, where)
	}
	st.Params = params
	if shardsNode != nil {
		st.Shards = ps.shards(st, shardsNode, where)
	}
	if st.Kind.CheckInputs != nil {
		if err := st.Kind.CheckInputs(st.Inputs); err != nil {
			line := st.Line
			if inputsNode != nil {
				line = inputsNode.Line
			}
			ps.add(line, "%sinputs: %v", where, err)
		}
	}
	return st
}

// paramErrors adds every error of a (possibly joined) params error.
func (ps *parser) paramErrors(err error, line int, where string) {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			ps.paramErrors(e, line, where)
		}
		return
	}
	var pe *ParamError
	if errors.As(err, &pe) && pe.Line > 0 {
		line = pe.Line
	}
	ps.add(line, "%s%v", where, err)
}

func (ps *parser) inputs(p *Pipeline, n *yaml.Node, where string) []Input {
	var items []*yaml.Node
	switch {
	case n.Kind == yaml.SequenceNode:
		items = n.Content
	case n.Kind == yaml.ScalarNode && !isNull(n):
		items = []*yaml.Node{n}
	case isNull(n):
	default:
		ps.add(n.Line, "%sinputs must be a list of \"stage:NAME\" or paths, got %s", where, nodeKindName(n))
		return nil
	}
	var out []Input
	for _, it := range items {
		it = resolve(it)
		s, ok := ps.scalar(it, where, "an input")
		if !ok {
			continue
		}
		in := Input{Raw: s, Line: it.Line}
		switch {
		case strings.HasPrefix(s, StagePrefix):
			in.Stage = strings.TrimSpace(strings.TrimPrefix(s, StagePrefix))
			if in.Stage == "" {
				ps.add(it.Line, "%sinput %q names no stage: write stage:NAME", where, s)
				continue
			}
		case strings.TrimSpace(s) == "":
			ps.add(it.Line, "%san input is empty", where)
			continue
		default:
			in.Path = resolvePath(p.Dir, s)
		}
		out = append(out, in)
	}
	return out
}

// link resolves stage inputs, rejects unknown ones and cycles, and orders the
// stages.
func (ps *parser) link(p *Pipeline) {
	byName := make(map[string]*Stage, len(p.Stages))
	var names []string
	for _, st := range p.Stages {
		byName[st.Name] = st
		names = append(names, st.Name)
	}
	for _, st := range p.Stages {
		for _, in := range st.Inputs {
			if in.Stage == "" {
				continue
			}
			dep, ok := byName[in.Stage]
			if !ok {
				ps.add(in.Line, "stage %q: input %q names no stage of this pipeline (stages: %s)",
					st.Name, in.Raw, strings.Join(names, ", "))
				continue
			}
			st.deps = append(st.deps, dep)
		}
	}
	if len(ps.errs) > 0 {
		return
	}
	if cycle := findCycle(p.Stages); cycle != nil {
		path := make([]string, len(cycle))
		for i, st := range cycle {
			path[i] = st.Name
		}
		ps.add(cycle[0].Line, "stage %q: inputs form a cycle: %s", cycle[0].Name, strings.Join(path, " -> "))
		return
	}
	p.order = topoOrder(p.Stages)
}

func resolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func resolvePath(dir, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
