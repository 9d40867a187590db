package nn

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
)

// Tensor is one named parameter array (row-major).
type Tensor struct {
	Name  string
	Shape []int
	Data  []float32
}

// Weights holds every parameter of a network of one Config, and the batch
// norm running statistics, by name. The set of names and shapes is fixed by
// the Config (see layout); NewWeights and Load guarantee it, and the
// functions that take Weights check it. Weights are plain data: not safe
// for concurrent modification.
type Weights struct {
	Config  Config
	tensors []Tensor
	index   map[string]int
}

// tensorKind says what a tensor is for: initialisation, weight decay and
// batch-norm handling depend on it.
type tensorKind uint8

const (
	kindConv  tensorKind = iota // convolution filters (out, in, kh, kw)
	kindFC                      // fully connected weights (in, out)
	kindBias                    // fully connected bias (out)
	kindGamma                   // batch-norm scale (channels)
	kindBeta                    // batch-norm shift (channels)
	kindMean                    // batch-norm running mean (channels)
	kindVar                     // batch-norm running variance (channels)
)

type tensorSpec struct {
	name  string
	shape []int
	kind  tensorKind
}

// Layer names. A convolution layer L has tensors L.conv, L.bn.gamma,
// L.bn.beta, L.bn.mean and L.bn.var; a fully connected layer L has L.w and
// L.b.
const (
	layerStem     = "stem"
	layerPolicy   = "policy"
	layerPolicyFC = "policy.fc"
	layerValue    = "value"
	layerValueFC1 = "value.fc1"
	layerValueFC2 = "value.fc2"
	layerDWinFC   = "dwin.fc"
	policyConvOut = 2
	valueConvOut  = 1
)

func blockLayer(i int, second bool) string {
	if second {
		return fmt.Sprintf("block%d.b", i)
	}
	return fmt.Sprintf("block%d.a", i)
}

// layout lists the tensors of a network of config c, in file order.
func layout(c Config) []tensorSpec {
	var specs []tensorSpec
	conv := func(name string, out, in, k int) {
		specs = append(specs,
			tensorSpec{name + ".conv", []int{out, in, k, k}, kindConv},
			tensorSpec{name + ".bn.gamma", []int{out}, kindGamma},
			tensorSpec{name + ".bn.beta", []int{out}, kindBeta},
			tensorSpec{name + ".bn.mean", []int{out}, kindMean},
			tensorSpec{name + ".bn.var", []int{out}, kindVar})
	}
	fc := func(name string, in, out int) {
		specs = append(specs,
			tensorSpec{name + ".w", []int{in, out}, kindFC},
			tensorSpec{name + ".b", []int{out}, kindBias})
	}
	n2 := c.Points()
	conv(layerStem, c.Filters, c.Planes(), 3)
	for i := 0; i < c.Blocks; i++ {
		conv(blockLayer(i, false), c.Filters, c.Filters, 3)
		conv(blockLayer(i, true), c.Filters, c.Filters, 3)
	}
	conv(layerPolicy, policyConvOut, c.Filters, 1)
	fc(layerPolicyFC, policyConvOut*n2, c.PolicySize())
	conv(layerValue, valueConvOut, c.Filters, 1)
	fc(layerValueFC1, valueConvOut*n2, c.ValueHidden)
	fc(layerValueFC2, c.ValueHidden, 1)
	fc(layerDWinFC, c.ValueHidden, c.D)
	return specs
}

// NewWeights returns randomly initialised weights for c: He-normal
// convolution and fully connected weights, zero biases, batch-norm scale 1,
// shift 0, running mean 0 and running variance 1. The same seed gives the
// same weights.
func NewWeights(c Config, seed uint64) (*Weights, error) {
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("nn: new weights: %w", err)
	}
	rng := rand.New(rand.NewPCG(seed, 0x6e6e))
	w := emptyWeights(c)
	for i, spec := range layout(c) {
		t := &w.tensors[i]
		switch spec.kind {
		case kindConv, kindFC:
			fanIn := size(t.Shape) / t.Shape[0] // (out, in, kh, kw)
			if spec.kind == kindFC {
				fanIn = t.Shape[0] // (in, out)
			}
			std := math.Sqrt(2 / float64(fanIn))
			for j := range t.Data {
				t.Data[j] = float32(rng.NormFloat64() * std)
			}
		case kindGamma, kindVar:
			fill(t.Data, 1)
		}
	}
	return w, nil
}

// emptyWeights returns zeroed tensors of c's layout.
func emptyWeights(c Config) *Weights {
	specs := layout(c)
	w := &Weights{Config: c, tensors: make([]Tensor, len(specs)), index: make(map[string]int, len(specs))}
	for i, s := range specs {
		w.tensors[i] = Tensor{Name: s.name, Shape: slices.Clone(s.shape), Data: make([]float32, size(s.shape))}
		w.index[s.name] = i
	}
	return w
}

// Tensor returns the tensor called name, or nil. The caller may modify the
// data in place (that is how Trainer and tests set parameters).
func (w *Weights) Tensor(name string) *Tensor {
	i, ok := w.index[name]
	if !ok {
		return nil
	}
	return &w.tensors[i]
}

// Names returns the tensor names in file order.
func (w *Weights) Names() []string {
	out := make([]string, len(w.tensors))
	for i, t := range w.tensors {
		out[i] = t.Name
	}
	return out
}

// Clone returns a deep copy.
func (w *Weights) Clone() *Weights {
	c := &Weights{Config: w.Config, tensors: make([]Tensor, len(w.tensors)), index: maps.Clone(w.index)}
	for i, t := range w.tensors {
		c.tensors[i] = Tensor{Name: t.Name, Shape: slices.Clone(t.Shape), Data: slices.Clone(t.Data)}
	}
	return c
}

// NumParams returns the number of trainable parameters (running statistics
// excluded).
func (w *Weights) NumParams() int {
	n := 0
	for i, s := range layout(w.Config) {
		if s.kind != kindMean && s.kind != kindVar {
			n += len(w.tensors[i].Data)
		}
	}
	return n
}

// check verifies that w holds exactly the tensors of its Config's layout
// (a Weights literal, or one whose Config was edited, may not).
func (w *Weights) check() error {
	if err := w.Config.Validate(); err != nil {
		return err
	}
	specs := layout(w.Config)
	if len(w.tensors) != len(specs) {
		return fmt.Errorf("weights hold %d tensors, config %v needs %d", len(w.tensors), w.Config, len(specs))
	}
	for i, s := range specs {
		t := &w.tensors[i]
		if t.Name != s.name || !slices.Equal(t.Shape, s.shape) || len(t.Data) != size(s.shape) || w.index[s.name] != i {
			return fmt.Errorf("weights tensor %d is %q %v (%d floats), config %v needs %q %v",
				i, t.Name, t.Shape, len(t.Data), w.Config, s.name, s.shape)
		}
	}
	return nil
}

// data returns the data of a tensor that the layout guarantees exists.
func (w *Weights) data(name string) []float32 {
	return w.tensors[w.index[name]].Data
}

func size(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}
