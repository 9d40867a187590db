package pipelines

import (
	"context"
	"fmt"
	"sort"

	"gopkg.in/yaml.v3"
)

// Kind is a stage kind: what a stage named in a pipeline file does.
type Kind struct {
	Name string // as written after "kind:" in a pipeline file
	Doc  string // one paragraph for "lifezero stages"

	// Version is part of every stage's input hash: bump it when the kind's
	// output changes for the same params and inputs, so cached outputs rerun.
	Version int

	// Params is the kind's params struct with its default values, or nil if
	// the kind takes no params. Keys are the fields' yaml tags; a field's
	// "help" tag documents it. Unless DecodeParams is set, params are decoded
	// onto a copy of this value by DecodeStruct, and Env.Params holds the
	// result (same type as Params).
	Params any

	// DecodeParams, if set, replaces the generic decoding of Params. It gets
	// the stage's params mapping (nil when absent) and returns errors of type
	// *ParamError so they can name the line and the key.
	DecodeParams func(node *yaml.Node) (any, error)

	// CheckInputs, if set, validates the stage's inputs when the pipeline is
	// loaded (how many, stage outputs or paths). Its error is reported at the
	// stage's line.
	CheckInputs func(inputs []Input) error

	// ReadsReports says the kind reads the report sections of its stage
	// inputs (the report/ directory beside their data), so their files are
	// part of its input hash. Other kinds read only the data: a report
	// holds timings, and an upstream rerun whose data is byte-identical must
	// not rerun them.
	ReadsReports bool

	// Shard, if set, makes the kind shardable: a stage may say "shards: N"
	// to split its work into N independent pieces (run one after another
	// here, on many workers by a distributed runner) merged into one dataset.
	Shard *Sharding

	// Run does the work: it reads env.Inputs and writes the output dataset
	// into env.OutDir, its manifest last (Env.WriteManifest). It must return
	// promptly with ctx.Err() once ctx is cancelled.
	Run func(ctx context.Context, env *Env) error
}

// decode decodes a stage's params node with the kind's decoder.
func (k *Kind) decode(node *yaml.Node) (any, error) {
	if k.DecodeParams != nil {
		return k.DecodeParams(node)
	}
	if k.Params == nil {
		if node != nil && !isNull(node) && !(node.Kind == yaml.MappingNode && len(node.Content) == 0) {
			return nil, &ParamError{Line: node.Line, Msg: fmt.Sprintf("kind %q takes no params", k.Name)}
		}
		return nil, nil
	}
	return DecodeStruct(k.Params, node)
}

// Registry holds the stage kinds a pipeline may use.
type Registry struct {
	kinds map[string]*Kind
}

// NewRegistry returns a registry holding kinds; it fails on a kind without a
// name or Run, or on a name registered twice.
func NewRegistry(kinds ...Kind) (*Registry, error) {
	r := &Registry{kinds: make(map[string]*Kind)}
	for _, k := range kinds {
		if err := r.Register(k); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Register adds a kind.
func (r *Registry) Register(k Kind) error {
	if k.Name == "" {
		return fmt.Errorf("pipelines: register: kind has no name")
	}
	if k.Run == nil {
		return fmt.Errorf("pipelines: register kind %q: Run is nil", k.Name)
	}
	if _, dup := r.kinds[k.Name]; dup {
		return fmt.Errorf("pipelines: register kind %q: already registered", k.Name)
	}
	if k.Params != nil && k.DecodeParams == nil {
		if _, err := ParamFields(k.Params); err != nil {
			return fmt.Errorf("pipelines: register kind %q: %w", k.Name, err)
		}
	}
	r.kinds[k.Name] = &k
	return nil
}

// Lookup returns the kind called name.
func (r *Registry) Lookup(name string) (*Kind, bool) {
	k, ok := r.kinds[name]
	return k, ok
}

// Kinds returns every kind, sorted by name.
func (r *Registry) Kinds() []*Kind {
	out := make([]*Kind, 0, len(r.kinds))
	for _, k := range r.kinds {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Names returns the kinds' names, sorted.
func (r *Registry) Names() []string {
	var names []string
	for _, k := range r.Kinds() {
		names = append(names, k.Name)
	}
	return names
}
