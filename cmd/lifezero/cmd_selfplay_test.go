package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"lifezero/datasets"
	"lifezero/selfplay"
	"lifezero/train"
)

func TestSelfplayAndTrainCommands(t *testing.T) {
	dir := t.TempDir()
	sp1, net, sp2 := filepath.Join(dir, "sp1"), filepath.Join(dir, "net"), filepath.Join(dir, "sp2")
	code, out, errs := lifezero(t, "selfplay", "--out", sp1, "--games", "3", "--simulations", "8", "--games-per-file", "2", "--seed", "4")
	if code != 0 || !strings.Contains(out, "3 games (0 resumed)") {
		t.Fatalf("selfplay: exit %d\n%s\n%s", code, out, errs)
	}
	s, m1, err := selfplay.ReadSamples(context.Background(), sp1)
	if err != nil {
		t.Fatal(err)
	}
	if s.N == 0 || m1.Meta[selfplay.MetaDW] != "98" {
		t.Fatalf("samples: %d, d_w %q (want the 7x7 net's D, 98)", s.N, m1.Meta[selfplay.MetaDW])
	}
	code, out, errs = lifezero(t, "train", "--out", net, "--steps", "6", "--batch-size", "8", "--checkpoint-every", "2", sp1)
	if code != 0 || !strings.Contains(out, "for 6 steps") {
		t.Fatalf("train: exit %d\n%s\n%s", code, out, errs)
	}
	weights, mn, err := train.NetworkPath(net)
	if err != nil {
		t.Fatal(err)
	}
	if mn.Meta[selfplay.MetaNextDW] != m1.Meta[selfplay.MetaNextDW] {
		t.Errorf("network carries next d_w %q, samples %q", mn.Meta[selfplay.MetaNextDW], m1.Meta[selfplay.MetaNextDW])
	}
	if losses, err := train.ReadLosses(context.Background(), net); err != nil || len(losses) == 0 {
		t.Errorf("losses: %d points, err %v", len(losses), err)
	}
	if _, err := os.Stat(filepath.Join(net, train.CheckpointFile)); err == nil {
		t.Error("the checkpoint was left behind after training finished")
	}
	code, out, errs = lifezero(t, "selfplay", "--out", sp2, "--net", weights, "--dw-from", net, "--games", "2", "--simulations", "8")
	if code != 0 {
		t.Fatalf("selfplay --net: exit %d\n%s\n%s", code, out, errs)
	}
	m2, err := datasets.ReadManifest(sp2)
	if err != nil {
		t.Fatal(err)
	}
	if m2.Meta[selfplay.MetaDW] != m1.Meta[selfplay.MetaNextDW] || !strings.Contains(m2.Meta["net"], "2x16") {
		t.Errorf("second generation: d_w %q (want %q), net %q", m2.Meta[selfplay.MetaDW], m1.Meta[selfplay.MetaNextDW], m2.Meta["net"])
	}
	for _, args := range [][]string{
		{"selfplay", "--games", "2"},
		{"train", "--out", net},
		{"selfplay", "--out", sp2, "--net", filepath.Join(dir, "missing")},
	} {
		if code, _, _ := lifezero(t, args...); code == 0 {
			t.Errorf("%v: exit 0, want an error", args)
		}
	}
}

const ftlPipeline = `name: ftl
stages:
  sp1:
    kind: selfplay
    params: {games: 3, simulations: 8, games_per_file: 2}
  net1:
    kind: train
    inputs: [stage:sp1]
    params: {steps: 6, batch_size: 8, checkpoint_every: 2, log_every: 2}
  sp2:
    kind: selfplay
    inputs: [stage:net1, stage:sp1]
    params: {games: 2, simulations: 8}
  net2:
    kind: train
    inputs: [stage:net1, stage:sp1, stage:sp2]
    params: {steps: 4, batch_size: 8, window: 1}
  report:
    kind: report
    inputs: [stage:sp1, stage:net1, stage:sp2, stage:net2]
`

func TestSelfplayTrainPipeline(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "pipeline.yaml")
	if err := os.WriteFile(file, []byte(ftlPipeline), 0o644); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "work")
	code, out, errs := lifezero(t, "run", file, "--workdir", work)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	m1, err := datasets.ReadManifest(filepath.Join(work, "sp1"))
	if err != nil {
		t.Fatal(err)
	}
	m2, err := datasets.ReadManifest(filepath.Join(work, "sp2"))
	if err != nil {
		t.Fatal(err)
	}
	// d_w is carried from one generation to the next.
	if m2.Meta[selfplay.MetaDW] != m1.Meta[selfplay.MetaNextDW] {
		t.Errorf("sp2 played d_w %q, sp1's median length is %q", m2.Meta[selfplay.MetaDW], m1.Meta[selfplay.MetaNextDW])
	}
	if !strings.Contains(m2.Meta["net"], filepath.Join("net1", train.NetworkFile)) {
		t.Errorf("sp2 played with %q, want net1's network", m2.Meta["net"])
	}
	n2, err := datasets.ReadManifest(filepath.Join(work, "net2"))
	if err != nil {
		t.Fatal(err)
	}
	// The window of one dataset is sp2's samples alone, starting from net1.
	if n2.Meta["samples"] != strconv.FormatInt(m2.Rows, 10) || !strings.Contains(n2.Meta["init"], "net1") {
		t.Errorf("net2 trained on %s samples from %q; sp2 holds %d, want net1 as start", n2.Meta["samples"], n2.Meta["init"], m2.Rows)
	}
	report, err := os.ReadFile(filepath.Join(work, "report", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Self-play: sp2", "## Training: net2", "net2-losses.png", "sp1-lengths.png"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if code, out, _ := lifezero(t, "run", file, "--workdir", work); code != 0 || strings.Count(out, " cached ") != 5 {
		t.Errorf("second run: exit %d, want 5 cached stages:\n%s", code, out)
	}
}
