package nn

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"

	"lifezero/internal/atomicfile"
	"lifezero/internal/readfile"
)

// OptimizerState is what a Trainer's optimiser carries from step to step
// besides the weights: the step count (Adam's bias correction uses it) and
// per tensor, in layout order, the velocity of momentum SGD (M) or Adam's
// first and second moments (M and V; V is nil for momentum). A checkpoint
// that keeps it lets a resumed run continue exactly where it stopped.
type OptimizerState struct {
	Optimizer string
	Steps     int
	M, V      [][]float32
}

// OptimizerState returns a copy of the trainer's optimiser state.
func (t *Trainer) OptimizerState() *OptimizerState {
	s := &OptimizerState{Optimizer: t.opts.Optimizer, Steps: t.steps, M: cloneAll(t.m)}
	if t.opts.Optimizer == OptimizerAdam {
		s.V = cloneAll(t.v)
	}
	return s
}

// SetOptimizerState replaces the trainer's optimiser state by a copy of s,
// which must come from a trainer with the same optimiser and network shape.
func (t *Trainer) SetOptimizerState(s *OptimizerState) error {
	if s.Optimizer != t.opts.Optimizer {
		return fmt.Errorf("nn: optimiser state of %q, the trainer uses %q", s.Optimizer, t.opts.Optimizer)
	}
	if s.Steps < 0 {
		return fmt.Errorf("nn: optimiser state at step %d", s.Steps)
	}
	if err := sameShapes("velocity/first moment", s.M, t.m); err != nil {
		return err
	}
	if t.opts.Optimizer == OptimizerAdam {
		if err := sameShapes("second moment", s.V, t.v); err != nil {
			return err
		}
		t.v = cloneAll(s.V)
	}
	t.m = cloneAll(s.M)
	t.steps = s.Steps
	return nil
}

func sameShapes(what string, got, want [][]float32) error {
	if len(got) != len(want) {
		return fmt.Errorf("nn: optimiser state: %s of %d tensors, the network has %d", what, len(got), len(want))
	}
	for i := range got {
		if len(got[i]) != len(want[i]) {
			return fmt.Errorf("nn: optimiser state: %s of tensor %d has %d values, want %d", what, i, len(got[i]), len(want[i]))
		}
	}
	return nil
}

func cloneAll(x [][]float32) [][]float32 {
	out := make([][]float32, len(x))
	for i := range x {
		out[i] = append([]float32(nil), x[i]...)
	}
	return out
}

// The optimiser state file, version 1, integers little-endian:
//
//	magic     [4]byte "LZOS"
//	version   uint32  1
//	optLen    uint16, optimizer [optLen]byte
//	steps     uint32
//	count     uint32  number of tensors
//	count times: mLen uint32, m [mLen]float32; vLen uint32, v [vLen]float32
//	crc       uint32  CRC-32 (IEEE) of every byte before it
const (
	stateMagic   = "LZOS"
	stateVersion = 1
)

// Save writes s to path atomically.
func (s *OptimizerState) Save(path string) error {
	b := append([]byte(nil), stateMagic...)
	b = binary.LittleEndian.AppendUint32(b, stateVersion)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(s.Optimizer)))
	b = append(b, s.Optimizer...)
	b = binary.LittleEndian.AppendUint32(b, uint32(s.Steps))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s.M)))
	for i := range s.M {
		b = appendFloats(b, s.M[i])
		var v []float32
		if s.V != nil {
			v = s.V[i]
		}
		b = appendFloats(b, v)
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	if err := atomicfile.WriteFile(path, b); err != nil {
		return fmt.Errorf("nn: save optimiser state: %w", err)
	}
	return nil
}

func appendFloats(b []byte, x []float32) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(x)))
	for _, v := range x {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	return b
}

// LoadOptimizerState reads a file written by OptimizerState.Save.
func LoadOptimizerState(path string) (*OptimizerState, error) {
	data, err := readfile.Read(path, readfile.MaxWeights)
	if err != nil {
		return nil, fmt.Errorf("nn: load optimiser state: %w", err)
	}
	s, err := decodeOptimizerState(data)
	if err != nil {
		return nil, fmt.Errorf("nn: load optimiser state %s: %w", path, err)
	}
	return s, nil
}

func decodeOptimizerState(data []byte) (*OptimizerState, error) {
	body := data[:max(0, len(data)-4)]
	r := &reader{b: body}
	if m := r.take(4, "magic"); r.err == nil && string(m) != stateMagic {
		return nil, fmt.Errorf("not an optimiser state file (magic %q, want %q)", m, stateMagic)
	}
	if v := r.u32("version"); r.err == nil && v != stateVersion {
		return nil, fmt.Errorf("optimiser state version %d, this build reads version %d", v, stateVersion)
	}
	s := &OptimizerState{Optimizer: string(r.take(int(r.u16("optimizer length")), "optimizer"))}
	s.Steps = int(r.u32("steps"))
	count := int(r.u32("tensor count"))
	if r.err != nil {
		return nil, r.err
	}
	hasV := false
	for i := 0; i < count && r.err == nil; i++ {
		m := r.floats("first moment")
		v := r.floats("second moment")
		s.M = append(s.M, m)
		if i == 0 {
			hasV = len(v) > 0
		}
		if hasV {
			s.V = append(s.V, v)
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	if r.off != len(body) {
		return nil, fmt.Errorf("corrupt: %d unexpected bytes after the tensors", len(body)-r.off)
	}
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(data[len(body):]) {
		return nil, fmt.Errorf("corrupt: checksum mismatch")
	}
	return s, nil
}

// floats reads a length-prefixed float32 slice.
func (r *reader) floats(what string) []float32 {
	n := int(r.u32(what + " length"))
	raw := r.take(4*n, what)
	if r.err != nil {
		return nil
	}
	out := make([]float32, n)
	for j := range out {
		out[j] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*j:]))
	}
	return out
}
