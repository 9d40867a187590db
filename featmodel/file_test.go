package featmodel

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestWeightsFileRoundTrip(t *testing.T) {
	samples := smallSamples(6, 300)
	dir := t.TempDir()
	for _, tr := range trainers {
		m, err := tr.train(context.Background(), samples, newRand(9), nil)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, tr.name+".weights")
		if err := SaveModel(path, m); err != nil {
			t.Fatal(err)
		}
		loaded, err := LoadModel(path)
		if err != nil {
			t.Fatal(err)
		}
		if reflect.TypeOf(loaded) != reflect.TypeOf(m) || loaded.Name() != m.Name() {
			t.Errorf("%s: loaded a %T named %q, saved a %T named %q", tr.name, loaded, loaded.Name(), m, m.Name())
		}
		want, got := allScores(m, samples), allScores(loaded, samples)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: scores differ after the round trip", tr.name)
		}
		if !reflect.DeepEqual(modelInfo(loaded), modelInfo(m)) {
			t.Errorf("%s: training info %+v, saved %+v", tr.name, modelInfo(loaded), modelInfo(m))
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.Contains(e.Name(), ".tmp") {
				t.Errorf("temp file %s left behind", e.Name())
			}
		}
	}
}

func TestWeightsFileLayout(t *testing.T) {
	// Decode a file by the documented layout alone.
	m, err := NewFBTModel([]float64{1.5, -2}, []float64{0.25, 0.5, -1, 2}, 2)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteModel(&buf, m); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if string(b[:8]) != "LZFEATM\n" {
		t.Fatalf("magic %q", b[:8])
	}
	hlen := int(binary.LittleEndian.Uint32(b[8:12]))
	var h map[string]any
	if err := json.Unmarshal(b[12:12+hlen], &h); err != nil {
		t.Fatal(err)
	}
	if h["format"] != "lifezero-feature-model" || h["version"] != 1.0 || h["model"] != "fbt" || h["features"] != 2.0 || h["factors"] != 2.0 {
		t.Errorf("header %v", h)
	}
	payload := b[12+hlen:]
	if len(payload) != 6*8 {
		t.Fatalf("payload of %d bytes, want 48", len(payload))
	}
	want := []float64{1.5, -2, 0.25, 0.5, -1, 2}
	for i, x := range want {
		var got float64
		if err := binary.Read(bytes.NewReader(payload[8*i:8*i+8]), binary.LittleEndian, &got); err != nil || got != x {
			t.Errorf("payload value %d = %v, want %v", i, got, x)
		}
	}
}

func TestCorruptWeightsFilesAreRejected(t *testing.T) {
	m, err := NewBTModel([]float64{1, 2, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteModel(&buf, m); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	hlen := int(binary.LittleEndian.Uint32(good[8:12]))
	header := string(good[12 : 12+hlen])
	withHeader := func(edit func(string) string) []byte {
		h := edit(header)
		out := append([]byte("LZFEATM\n"), binary.LittleEndian.AppendUint32(nil, uint32(len(h)))...)
		return append(append(out, h...), good[12+hlen:]...)
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "magic"},
		{"bad magic", append([]byte("NOTMODEL"), good[8:]...), "bad magic"},
		{"huge header", append(append([]byte("LZFEATM\n"), 0xff, 0xff, 0xff, 0xff), good[12:]...), "header length"},
		{"truncated header", good[:20], "header"},
		{"header not JSON", withHeader(func(string) string { return "{oops" }), "decoding the header"},
		{"other version", withHeader(func(h string) string { return strings.Replace(h, `"version":1`, `"version":2`, 1) }), "version"},
		{"unknown model", withHeader(func(h string) string { return strings.Replace(h, `"model":"bt"`, `"model":"nn"`, 1) }), "model"},
		{"array length", withHeader(func(h string) string { return strings.Replace(h, `"len":3`, `"len":2`, 1) }), "arrays[0]"},
		{"truncated payload", good[:len(good)-3], "reading array gamma"},
		{"flipped payload bit", flipLastByte(good), "checksum"},
		{"trailing byte", append(append([]byte(nil), good...), 0), "trailing"},
	}
	for _, tt := range tests {
		_, err := ReadModel(bytes.NewReader(tt.data))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tt.name, err, tt.want)
		}
	}
	if _, err := ReadModel(bytes.NewReader(good)); err != nil {
		t.Errorf("the unmodified file: %v", err)
	}
}

func flipLastByte(b []byte) []byte {
	out := append([]byte(nil), b...)
	out[len(out)-1] ^= 0x01
	return out
}

func TestModelsRejectBadParameters(t *testing.T) {
	if _, err := NewBTModel([]float64{1, 0}); err == nil {
		t.Error("BT accepted γ = 0")
	}
	if _, err := NewFBTModel([]float64{1, 2}, []float64{1, 2, 3}, 2); err == nil {
		t.Error("FBT accepted 3 factor values for 2 features and k = 2")
	}
	if _, err := NewLFRModel([]float64{1}, []float64{1}, 0); err == nil {
		t.Error("LFR accepted k = 0")
	}
	if err := SaveModel(filepath.Join(t.TempDir(), "x"), otherModel{}); err == nil {
		t.Error("saved a model type the format does not know")
	}
	if _, err := LoadModel(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("loaded a missing file")
	}
}

type otherModel struct{}

func (otherModel) Name() string              { return "other" }
func (otherModel) Score(c Candidate) float64 { return 0 }
