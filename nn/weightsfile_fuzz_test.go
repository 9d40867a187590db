package nn

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// weightSeeds returns real weights files, written by MarshalBinary for a few
// small configs (moves planes and a zero-block tower included).
func weightSeeds(t testing.TB) [][]byte {
	var seeds [][]byte
	for _, c := range []Config{
		{Board: 5, Blocks: 1, Filters: 4, D: 3, ValueHidden: 8},
		{Board: 5, Blocks: 0, Filters: 2, D: 2, ValueHidden: 1},
		{Board: 7, Blocks: 2, Filters: 3, D: 5, ValueHidden: 4, MoveNumberPlanes: 2},
	} {
		w, err := NewWeights(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		b, err := w.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	return seeds
}

// FuzzUnmarshalWeights checks that no input makes the weights file reader
// panic or allocate beyond the input's size (an out-of-memory would kill the
// fuzzer), and that whatever it accepts encodes back to a file it reads as
// the same weights.
func FuzzUnmarshalWeights(f *testing.F) {
	for _, b := range weightSeeds(f) {
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Add([]byte(fileMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		var w Weights
		if err := w.UnmarshalBinary(data); err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		again, err := w.MarshalBinary()
		if err != nil {
			t.Fatalf("accepted weights do not encode: %v", err)
		}
		var w2 Weights
		if err := w2.UnmarshalBinary(again); err != nil {
			t.Fatalf("re-encoded weights do not decode: %v", err)
		}
		if w2.Config != w.Config {
			t.Fatalf("config %+v after a round trip, want %+v", w2.Config, w.Config)
		}
		for _, name := range w.Names() {
			if !slices.Equal(w2.Tensor(name).Data, w.Tensor(name).Data) {
				t.Fatalf("tensor %s differs after a round trip", name)
			}
		}
	})
}

// A small file whose config asks for the largest valid network must be
// refused as truncated before the gigabytes of tensors are allocated.
func TestLoadHugeConfigSmallFile(t *testing.T) {
	c := Config{Board: 19, Blocks: 64, Filters: 1024, D: 4096, ValueHidden: 4096, MoveNumberPlanes: 1024}
	cfg, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	b := []byte(fileMagic)
	b = binary.LittleEndian.AppendUint32(b, fileVersion)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(cfg)))
	b = append(b, cfg...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(layout(c))))
	b = append(b, bytes.Repeat([]byte{0}, 64)...)
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	path := filepath.Join(t.TempDir(), "huge.lznn")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = Load(path)
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("Load allocated %d bytes for a %d-byte file", n, len(b))
	}
	if err == nil || !errors.Is(err, errTruncated) || !strings.Contains(err.Error(), path) ||
		!strings.Contains(err.Error(), "bytes of tensors") {
		t.Fatalf("error %v, want a truncation error naming %s and the tensor bytes needed", err, path)
	}
}
