package nn

import (
	"fmt"
	"hash"
	"hash/fnv"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// What the training graph's own ops (graphconv.go, graphbn.go) answer
// alike for gorgonia's Op interface.

// opTraits are the answers every op gives: a fresh value (no pointer into
// an input), pure Go, no input overwritten.
type opTraits struct{}

func (opTraits) ReturnsPtr() bool     { return false }
func (opTraits) CallsExtern() bool    { return false }
func (opTraits) OverwritesInput() int { return -1 }

// tensorFnType is the type of an op of arity 4-d tensors to one 4-d
// tensor, all of one element type.
func tensorFnType(arity int) hm.Type {
	t := G.TensorType{Dims: 4, Of: hm.TypeVariable('a')}
	ts := make([]hm.Type, arity+1)
	for i := range ts {
		ts[i] = t
	}
	return hm.NewFnType(ts...)
}

// hashOf is an op's Hashcode: FNV-1a of what it writes in WriteHash.
func hashOf(op interface{ WriteHash(hash.Hash) }) uint32 {
	h := fnv.New32a()
	op.WriteHash(h)
	return h.Sum32()
}

// firstShape is InferShape of an op of n inputs whose output has its first
// input's shape.
func firstShape(op fmt.Stringer, shapes []G.DimSizer, n int) (tensor.Shape, error) {
	if len(shapes) != n {
		return nil, fmt.Errorf("%v: %d inputs, want %d", op, len(shapes), n)
	}
	s, ok := shapes[0].(tensor.Shape)
	if !ok {
		return nil, fmt.Errorf("%v: input of shape %v", op, shapes[0])
	}
	return s.Clone(), nil
}
