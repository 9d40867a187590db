package nn

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"slices"

	"lifezero/internal/atomicfile"
	"lifezero/internal/readfile"
)

// The weights file, version 1, all integers little-endian:
//
//	magic    [4]byte  "LZNN"
//	version  uint32   1
//	cfgLen   uint32   length of the config JSON
//	config   [cfgLen]byte  Config as JSON
//	count    uint32   number of tensors
//	count times:
//	  nameLen uint16, name [nameLen]byte
//	  dims    uint8,  shape [dims]uint32
//	  data    [prod(shape)]float32 (IEEE 754 bits)
//	crc      uint32   CRC-32 (IEEE) of every byte before it
//
// The tensors are exactly those of the config's layout, in layout order,
// batch-norm running means and variances included.
const (
	fileMagic   = "LZNN"
	fileVersion = 1
)

// Save writes w to path atomically (a temporary file in the same directory,
// then a rename).
func (w *Weights) Save(path string) error {
	data, err := w.MarshalBinary()
	if err != nil {
		return fmt.Errorf("nn: save %s: %w", path, err)
	}
	if err := atomicfile.WriteFile(path, data); err != nil {
		return fmt.Errorf("nn: save weights: %w", err)
	}
	return nil
}

// Load reads a weights file written by Save.
func Load(path string) (*Weights, error) {
	data, err := readfile.Read(path, readfile.MaxWeights)
	if err != nil {
		return nil, fmt.Errorf("nn: load weights: %w", err)
	}
	w := new(Weights)
	if err := w.UnmarshalBinary(data); err != nil {
		return nil, fmt.Errorf("nn: load weights %s: %w", path, err)
	}
	return w, nil
}

// MarshalBinary encodes w in the weights file format.
func (w *Weights) MarshalBinary() ([]byte, error) {
	if err := w.check(); err != nil {
		return nil, err
	}
	for i := range w.tensors {
		if err := checkFinite(&w.tensors[i]); err != nil {
			return nil, err
		}
	}
	cfg, err := json.Marshal(w.Config)
	if err != nil {
		return nil, err
	}
	n := 16 + len(cfg) + 4
	for _, t := range w.tensors {
		n += 3 + len(t.Name) + 4*len(t.Shape) + 4*len(t.Data)
	}
	b := make([]byte, 0, n)
	b = append(b, fileMagic...)
	b = binary.LittleEndian.AppendUint32(b, fileVersion)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(cfg)))
	b = append(b, cfg...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(w.tensors)))
	for _, t := range w.tensors {
		b = binary.LittleEndian.AppendUint16(b, uint16(len(t.Name)))
		b = append(b, t.Name...)
		b = append(b, uint8(len(t.Shape)))
		for _, d := range t.Shape {
			b = binary.LittleEndian.AppendUint32(b, uint32(d))
		}
		for _, v := range t.Data {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b)), nil
}

// errTruncated is wrapped by every "file ends too early" error.
var errTruncated = errors.New("truncated")

// reader walks the bytes of a weights file, remembering the first error.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) take(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || len(r.b)-r.off < n {
		r.err = fmt.Errorf("%w: %s needs %d bytes at offset %d, file has %d left", errTruncated, what, n, r.off, len(r.b)-r.off)
		return nil
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return s
}

func (r *reader) u32(what string) uint32 {
	if s := r.take(4, what); s != nil {
		return binary.LittleEndian.Uint32(s)
	}
	return 0
}

func (r *reader) u16(what string) uint16 {
	if s := r.take(2, what); s != nil {
		return binary.LittleEndian.Uint16(s)
	}
	return 0
}

// UnmarshalBinary decodes the weights file format, checking the magic, the
// version, that the tensors match the stored config, and the checksum.
func (w *Weights) UnmarshalBinary(data []byte) error {
	// The last 4 bytes are the checksum: parse everything before them, so
	// a cut file reads as truncated, and check the sum once it parses.
	body := data[:max(0, len(data)-4)]
	r := &reader{b: body}
	if m := r.take(4, "magic"); r.err == nil && string(m) != fileMagic {
		return fmt.Errorf("not a weights file (magic %q, want %q)", m, fileMagic)
	}
	if v := r.u32("version"); r.err == nil && v != fileVersion {
		return fmt.Errorf("weights file version %d, this build reads version %d", v, fileVersion)
	}
	cfgJSON := r.take(int(r.u32("config length")), "config")
	if r.err != nil {
		return r.err
	}
	out, err := decodeTensors(r, cfgJSON)
	if err != nil {
		return err
	}
	if r.off != len(body) {
		return fmt.Errorf("corrupt: %d unexpected bytes after the tensors", len(body)-r.off)
	}
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(data[len(body):]) {
		return fmt.Errorf("corrupt: checksum mismatch")
	}
	*w = *out
	return nil
}

func decodeTensors(r *reader, cfgJSON []byte) (*Weights, error) {
	var cfg Config
	dec := json.NewDecoder(bytes.NewReader(cfgJSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	specs := layout(cfg)
	count := r.u32("tensor count")
	if r.err != nil {
		return nil, r.err
	}
	if int(count) != len(specs) {
		return nil, fmt.Errorf("%d tensors, config %v needs %d", count, cfg, len(specs))
	}
	// The config alone sets the tensors' sizes, up to gigabytes for the
	// largest valid one: check that the file holds that much data before
	// allocating it, so a damaged or hostile config in a small file is
	// refused instead of exhausting memory.
	need := 0
	for _, spec := range specs {
		need += 3 + len(spec.name) + 4*len(spec.shape) + 4*size(spec.shape)
	}
	if left := len(r.b) - r.off; left < need {
		return nil, fmt.Errorf("%w: config %v needs %d bytes of tensors, file has %d left", errTruncated, cfg, need, left)
	}
	out := emptyWeights(cfg)
	for i, spec := range specs {
		name := string(r.take(int(r.u16("name length")), "tensor name"))
		if r.err != nil {
			return nil, fmt.Errorf("tensor %d (%s): %w", i, spec.name, r.err)
		}
		if name != spec.name {
			return nil, fmt.Errorf("tensor %d is %q, want %q", i, name, spec.name)
		}
		var shape []int
		if dims := r.take(1, "dims"); dims != nil {
			for range int(dims[0]) {
				shape = append(shape, int(r.u32("shape")))
			}
		}
		if r.err != nil {
			return nil, fmt.Errorf("tensor %q: %w", name, r.err)
		}
		if !slices.Equal(shape, spec.shape) {
			return nil, fmt.Errorf("tensor %q has shape %v, config %v needs %v", name, shape, cfg, spec.shape)
		}
		raw := r.take(4*size(shape), "data")
		if r.err != nil {
			return nil, fmt.Errorf("tensor %q: %w", name, r.err)
		}
		dst := out.tensors[i].Data
		for j := range dst {
			dst[j] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*j:]))
		}
		if err := checkFinite(&out.tensors[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// checkFinite refuses NaN and infinite values: a network that diverged.
func checkFinite(t *Tensor) error {
	for j, v := range t.Data {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return fmt.Errorf("tensor %q holds %v at index %d", t.Name, v, j)
		}
	}
	return nil
}
