package featmodel

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"

	"lifezero/internal/atomicfile"
)

// The feature-model weights file, version 1. All integers are little-endian.
//
//	offset 0   8 bytes  magic "LZFEATM\n"
//	offset 8   uint32   H, the length of the JSON header
//	offset 12  H bytes  JSON header (weightsHeader):
//	                      format   "lifezero-feature-model"
//	                      version  1
//	                      model    "bt", "lfr" or "fbt"
//	                      features number of feature ids n
//	                      factors  k (lfr, fbt)
//	                      arrays   [{"name", "len"}...] in payload order:
//	                                 bt:       gamma (n values, γ_f > 0)
//	                                 lfr, fbt: w (n values), v (n·k values,
//	                                           feature-major: v_f = v[f·k:(f+1)·k])
//	                      crc32    CRC-32 (IEEE) of the payload
//	                      train    TrainInfo: samples, epochs, loss history...
//	offset 12+H         payload: the arrays, each len float64 values
//	                    (IEEE 754 bits, little-endian); the file ends there.
//
// Readers reject other magics, formats and versions, arrays of the wrong
// name or length, a checksum mismatch, non-finite values and trailing bytes.
const (
	weightsMagic   = "LZFEATM\n"
	weightsFormat  = "lifezero-feature-model"
	WeightsVersion = 1
	maxHeaderBytes = 64 << 20
)

type weightsHeader struct {
	Format   string        `json:"format"`
	Version  int           `json:"version"`
	Model    string        `json:"model"`
	Features int           `json:"features"`
	Factors  int           `json:"factors,omitempty"`
	Arrays   []arrayHeader `json:"arrays"`
	CRC32    uint32        `json:"crc32"`
	Train    TrainInfo     `json:"train"`
}

type arrayHeader struct {
	Name string `json:"name"`
	Len  int    `json:"len"`
}

// namedArray is one payload array.
type namedArray struct {
	name   string
	values []float64
}

// modelArrays returns the header fields and payload arrays of m.
func modelArrays(m Model) (weightsHeader, []namedArray, error) {
	h := weightsHeader{Format: weightsFormat, Version: WeightsVersion, Model: m.Name()}
	switch m := m.(type) {
	case *BTModel:
		h.Features, h.Train = len(m.gamma), m.Info
		return h, []namedArray{{"gamma", m.gamma}}, nil
	case *LFRModel:
		h.Features, h.Factors, h.Train = m.n, m.k, m.Info
		return h, []namedArray{{"w", m.w}, {"v", m.v}}, nil
	case *FBTModel:
		h.Features, h.Factors, h.Train = m.n, m.k, m.Info
		return h, []namedArray{{"w", m.w}, {"v", m.v}}, nil
	}
	return h, nil, fmt.Errorf("cannot save model of type %T: want *BTModel, *LFRModel or *FBTModel", m)
}

// WriteModel writes m (a *BTModel, *LFRModel or *FBTModel) in the weights
// file format.
func WriteModel(w io.Writer, m Model) error {
	h, arrays, err := modelArrays(m)
	if err != nil {
		return err
	}
	var payload []byte
	for _, a := range arrays {
		h.Arrays = append(h.Arrays, arrayHeader{Name: a.name, Len: len(a.values)})
		for _, x := range a.values {
			payload = binary.LittleEndian.AppendUint64(payload, math.Float64bits(x))
		}
	}
	h.CRC32 = crc32.ChecksumIEEE(payload)
	header, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("encoding weights header: %w", err)
	}
	out := make([]byte, 0, len(weightsMagic)+4+len(header)+len(payload))
	out = append(out, weightsMagic...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(header)))
	out = append(out, header...)
	out = append(out, payload...)
	_, err = w.Write(out)
	return err
}

// ReadModel reads a model written by WriteModel; the result is a *BTModel,
// *LFRModel or *FBTModel.
func ReadModel(r io.Reader) (Model, error) {
	br := bufio.NewReader(r)
	var pre [len(weightsMagic) + 4]byte
	if _, err := io.ReadFull(br, pre[:]); err != nil {
		return nil, fmt.Errorf("reading magic: %w", err)
	}
	if string(pre[:len(weightsMagic)]) != weightsMagic {
		return nil, fmt.Errorf("bad magic %q at offset 0: not a lifezero feature-model weights file", pre[:len(weightsMagic)])
	}
	hlen := binary.LittleEndian.Uint32(pre[len(weightsMagic):])
	if hlen > maxHeaderBytes {
		return nil, fmt.Errorf("header length %d at offset 8 above the limit %d", hlen, maxHeaderBytes)
	}
	raw := make([]byte, hlen)
	if _, err := io.ReadFull(br, raw); err != nil {
		return nil, fmt.Errorf("reading the %d-byte header at offset 12: %w", hlen, err)
	}
	var h weightsHeader
	if err := json.Unmarshal(raw, &h); err != nil {
		return nil, fmt.Errorf("decoding the header at offset 12: %w", err)
	}
	if err := h.check(); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	arrays, err := readPayload(br, h, 12+int64(hlen))
	if err != nil {
		return nil, err
	}
	m, err := h.build(arrays)
	if err != nil {
		return nil, fmt.Errorf("%s weights: %w", h.Model, err)
	}
	return m, nil
}

// check validates the header's fields against the format.
func (h *weightsHeader) check() error {
	if h.Format != weightsFormat {
		return fmt.Errorf("field format is %q, want %q", h.Format, weightsFormat)
	}
	if h.Version != WeightsVersion {
		return fmt.Errorf("field version is %d, this build reads version %d", h.Version, WeightsVersion)
	}
	if h.Features < 0 || h.Features > MaxFeatures {
		return fmt.Errorf("field features is %d, want 0..%d", h.Features, MaxFeatures)
	}
	var want []arrayHeader
	switch h.Model {
	case "bt":
		want = []arrayHeader{{"gamma", h.Features}}
	case "lfr", "fbt":
		if h.Factors < 1 || h.Factors > maxFactors {
			return fmt.Errorf("field factors is %d, want 1..%d", h.Factors, maxFactors)
		}
		want = []arrayHeader{{"w", h.Features}, {"v", h.Features * h.Factors}}
	default:
		return fmt.Errorf("field model is %q, want bt, lfr or fbt", h.Model)
	}
	if len(h.Arrays) != len(want) {
		return fmt.Errorf("field arrays has %d entries, a %s model has %d", len(h.Arrays), h.Model, len(want))
	}
	for i, a := range h.Arrays {
		if a != want[i] {
			return fmt.Errorf("field arrays[%d] is %+v, want %+v", i, a, want[i])
		}
	}
	return nil
}

// readPayload reads the arrays the header lists, checks the CRC and that the
// file ends right after them.
func readPayload(br *bufio.Reader, h weightsHeader, offset int64) ([][]float64, error) {
	crc := crc32.NewIEEE()
	var arrays [][]float64
	buf := make([]byte, 8*4096)
	for _, a := range h.Arrays {
		values := make([]float64, a.Len)
		for done := 0; done < a.Len; {
			chunk := buf[:8*min(a.Len-done, 4096)]
			if _, err := io.ReadFull(br, chunk); err != nil {
				return nil, fmt.Errorf("reading array %s at offset %d: %w", a.Name, offset, err)
			}
			crc.Write(chunk)
			for i := 0; i < len(chunk); i += 8 {
				values[done] = math.Float64frombits(binary.LittleEndian.Uint64(chunk[i:]))
				done++
			}
			offset += int64(len(chunk))
		}
		arrays = append(arrays, values)
	}
	if got := crc.Sum32(); got != h.CRC32 {
		return nil, fmt.Errorf("payload checksum %08x, header says %08x: the file is corrupt", got, h.CRC32)
	}
	if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("trailing bytes at offset %d after the payload", offset)
	}
	return arrays, nil
}

// build makes the model the header describes from its payload arrays.
func (h *weightsHeader) build(arrays [][]float64) (Model, error) {
	switch h.Model {
	case "bt":
		m, err := NewBTModel(arrays[0])
		if err != nil {
			return nil, err
		}
		m.Info = h.Train
		return m, nil
	case "lfr":
		m, err := NewLFRModel(arrays[0], arrays[1], h.Factors)
		if err != nil {
			return nil, err
		}
		m.Info = h.Train
		return m, nil
	default: // "fbt", checked by check
		m, err := NewFBTModel(arrays[0], arrays[1], h.Factors)
		if err != nil {
			return nil, err
		}
		m.Info = h.Train
		return m, nil
	}
}

// SaveModel writes m to path atomically (temp file in the same directory,
// synced, then renamed).
func SaveModel(path string, m Model) error {
	var buf bytes.Buffer
	if err := WriteModel(&buf, m); err != nil {
		return fmt.Errorf("saving %s: %w", path, err)
	}
	tmp, err := atomicfile.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*") // 0644 under the umask
	if err != nil {
		return fmt.Errorf("saving %s: %w", path, err)
	}
	_, err = tmp.Write(buf.Bytes())
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err == nil {
		err = atomicfile.SyncDir(filepath.Dir(path))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("saving %s: %w", path, err)
	}
	return nil
}

// LoadModel reads the weights file at path.
func LoadModel(path string) (Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("loading model: %w", err)
	}
	defer f.Close()
	m, err := ReadModel(f)
	if err != nil {
		return nil, fmt.Errorf("loading model %s: %w", path, err)
	}
	return m, nil
}
