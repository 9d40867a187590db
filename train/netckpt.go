package train

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"lifezero/internal/atomicfile"
	"lifezero/nn"
)

// CheckpointFile is the checkpoint's index in the checkpoint directory: it
// names the weights file of the last saved step, so the pair changes
// atomically (the weights are written first, under a new name).
const CheckpointFile = "checkpoint.json"

// Version 2 added the optimiser state: a version 1 checkpoint is not
// resumed (its run restarts), since continuing it with zero momentum would
// not be the run it was.
const (
	ckptPrefix   = "ckpt-"
	ckptVersion  = 2
	ckptStateExt = ".opt"
)

// checkpoint is the content of CheckpointFile.
type checkpoint struct {
	Version     int         `json:"version"`
	Fingerprint string      `json:"fingerprint"`
	Step        int         `json:"step"`
	Weights     string      `json:"weights"`
	State       string      `json:"optimizer_state"`
	Losses      []LossPoint `json:"losses"`
}

// netFingerprint identifies the settings a checkpoint belongs to: the data,
// the network, the optimiser, the starting weights and the batches. The
// number of steps is left out, so a finished run can be extended.
func netFingerprint(d *NetData, o *NetOptions) string {
	h := sha256.New()
	t := o.Train
	init := "random"
	if t.Init != nil {
		if data, err := t.Init.MarshalBinary(); err == nil {
			sum := sha256.Sum256(data)
			init = hex.EncodeToString(sum[:])
		}
	}
	t.Init = nil
	enc, _ := json.Marshal([]any{ckptVersion, d.fingerprint(), o.Config, t, init, o.LowLR, o.LRDropStep,
		o.BatchSize, o.Augment, o.Seed, o.LogEvery})
	h.Write(enc)
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// saveCheckpoint writes the weights and optimiser state of step, then the
// index naming them, then removes older checkpoint files.
func saveCheckpoint(dir, fp string, step int, w *nn.Weights, state *nn.OptimizerState, losses []LossPoint) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	base := fmt.Sprintf("%s%08d", ckptPrefix, step)
	name, stateName := base+".lznn", base+ckptStateExt
	if err := w.Save(filepath.Join(dir, name)); err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	if err := state.Save(filepath.Join(dir, stateName)); err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	data, err := json.MarshalIndent(checkpoint{Version: ckptVersion, Fingerprint: fp, Step: step, Weights: name,
		State: stateName, Losses: losses}, "", " ")
	if err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, CheckpointFile), data); err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	return removeCheckpoints(dir, name, stateName)
}

// loadCheckpoint returns the checkpoint in dir with its weights and
// optimiser state, or nil when there is none or it belongs to other
// settings.
func loadCheckpoint(dir, fp string) (*checkpoint, *nn.Weights, *nn.OptimizerState, error) {
	index := filepath.Join(dir, CheckpointFile)
	data, err := os.ReadFile(index)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil, nil
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("train: checkpoint: %w", err)
	}
	var ck checkpoint
	if err := json.Unmarshal(data, &ck); err != nil {
		return nil, nil, nil, fmt.Errorf("train: checkpoint %s is malformed (delete it to start over): %w", index, err)
	}
	if ck.Version != ckptVersion || ck.Fingerprint != fp {
		return nil, nil, nil, nil
	}
	for _, f := range []struct{ what, name string }{{"weights", ck.Weights}, {"optimizer_state", ck.State}} {
		if !filepath.IsLocal(f.name) {
			return nil, nil, nil, fmt.Errorf("train: checkpoint %s: %s %q is not a file in its directory", index, f.what, f.name)
		}
	}
	w, err := nn.Load(filepath.Join(dir, ck.Weights))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("train: checkpoint: %w", err)
	}
	state, err := nn.LoadOptimizerState(filepath.Join(dir, ck.State))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("train: checkpoint: %w", err)
	}
	return &ck, w, state, nil
}

// removeCheckpoints deletes the checkpoint files in dir (weights and
// optimiser states), keeping those named in keep (none: CheckpointFile goes
// too).
func removeCheckpoints(dir string, keep ...string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	for _, e := range entries {
		n := e.Name()
		ours := strings.HasSuffix(n, ".lznn") || strings.HasSuffix(n, ckptStateExt)
		if slices.Contains(keep, n) || !strings.HasPrefix(n, ckptPrefix) || !ours {
			continue
		}
		if err := os.Remove(filepath.Join(dir, n)); err != nil {
			return fmt.Errorf("train: checkpoint: %w", err)
		}
	}
	if len(keep) == 0 {
		if err := os.Remove(filepath.Join(dir, CheckpointFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("train: checkpoint: %w", err)
		}
	}
	return nil
}

// RemoveCheckpoints deletes the checkpoint that TrainNet left in dir, once
// its result is saved elsewhere.
func RemoveCheckpoints(dir string) error { return removeCheckpoints(dir) }
