package nn

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSaveLoadRoundTrip(t *testing.T) {
	c := testConfig(t, Preset2x16, 7)
	c.MoveNumberPlanes = 4
	w := trainedWeights(t, c, 2, 8, 3)
	path := filepath.Join(t.TempDir(), "net.lznn")
	if err := w.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Config != c {
		t.Fatalf("config %+v, want %+v", got.Config, c)
	}
	for _, name := range w.Names() {
		if !slices.Equal(got.Tensor(name).Data, w.Tensor(name).Data) || !slices.Equal(got.Tensor(name).Shape, w.Tensor(name).Shape) {
			t.Errorf("tensor %s differs after the round trip", name)
		}
	}
	// Same weights, same outputs, bit for bit.
	planes := randomPlanes(c, 5, rand.New(rand.NewPCG(9, 9)))
	e1, _ := NewEvaluator(w)
	e2, _ := NewEvaluator(got)
	p1, v1, d1, _ := e1.Forward(planes, 5)
	p2, v2, d2, _ := e2.Forward(planes, 5)
	if m := maxDiff(p1, p2, v1, v2, d1, d2); m != 0 {
		t.Errorf("outputs differ by %g after a save/load round trip", m)
	}
	// Save leaves no temporary file behind.
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries after Save, want 1", len(entries))
	}
}

func TestLoadRejectsDamagedFiles(t *testing.T) {
	c := Config{Board: 5, Blocks: 1, Filters: 4, D: 3, ValueHidden: 8}
	w, err := NewWeights(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	good, err := w.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	flip := func(i int) []byte {
		b := slices.Clone(good)
		b[i] ^= 0x40
		return b
	}
	other := c
	other.Filters = 5
	w2, _ := NewWeights(other, 1)
	otherData, _ := w2.MarshalBinary()
	wrongVersion := slices.Clone(good)
	wrongVersion[4] = 9
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "truncated"},
		{"magic only", good[:4], "truncated"},
		{"cut in config", good[:20], "truncated"},
		{"cut in tensors", good[:len(good)/2], "truncated"},
		{"one byte short", good[:len(good)-1], "truncated"},
		{"bad magic", append([]byte("GIF8"), good[4:]...), "not a weights file"},
		{"wrong version", wrongVersion, "version 9"},
		{"flipped data byte", flip(len(good) - 40), "checksum"},
		{"extra bytes", append(slices.Clone(good), 1, 2, 3, 4, 5, 6), "unexpected bytes"},
		{"tensors of another config", append(slices.Clone(good[:len(good)/3]), otherData[len(good)/3:]...), ""},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".lznn")
		if err := os.WriteFile(path, tt.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path)
		if err == nil {
			t.Errorf("%s: loaded without error", tt.name)
			continue
		}
		if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %q, want one naming %s and saying %q", tt.name, err, path, tt.want)
		}
	}
	w.Tensor("dwin.fc.b").Data[1] = float32(math.NaN())
	if err := w.Save(filepath.Join(dir, "nan.lznn")); err == nil || !strings.Contains(err.Error(), "dwin.fc.b") {
		t.Errorf("saving a NaN weight: error %v, want one naming dwin.fc.b", err)
	}
	if _, err := Load(filepath.Join(dir, "missing.lznn")); err == nil || !strings.Contains(err.Error(), "missing.lznn") {
		t.Errorf("missing file: error %v", err)
	}
}
