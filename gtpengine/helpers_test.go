package gtpengine

import (
	"context"
	"strings"
	"testing"

	"lifezero/nn"
)

// writeBTModel writes a Bradley-Terry model over the built-in feature set,
// with gammas drawn from a seeded log-normal, as a features-train stage's
// output directory (model.weights, features.json), and returns the dir.
func writeBTModel(t testing.TB, seed uint64) string {
	t.Helper()
	dir := t.TempDir()
	if err := WriteRandomModel(dir, seed); err != nil {
		t.Fatal(err)
	}
	return dir
}

// newBTEngine returns an engine playing a written BT model.
func newBTEngine(t testing.TB, opts Options) *Engine {
	t.Helper()
	p, err := LoadFeaturePlayer(writeBTModel(t, 3), "")
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// netWeights returns seeded random 2x16 weights for a board.
func netWeights(t testing.TB, board int) *nn.Weights {
	t.Helper()
	cfg, err := nn.Preset(nn.Preset2x16, board)
	if err != nil {
		t.Fatal(err)
	}
	w, err := nn.NewWeights(cfg, 5)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// send runs one command line and returns the reply.
func send(t testing.TB, e *Engine, line string) string {
	t.Helper()
	reply, _ := e.Handle(context.Background(), line)
	return reply
}

// okText returns the text of a success reply, failing the test otherwise.
func okText(t testing.TB, e *Engine, line string) string {
	t.Helper()
	reply := send(t, e, line)
	if !strings.HasPrefix(reply, "= ") || !strings.HasSuffix(reply, "\n\n") {
		t.Fatalf("%q: reply %q, want success", line, reply)
	}
	return strings.TrimSuffix(strings.TrimPrefix(reply, "= "), "\n\n")
}
