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
	"strings"

	"lifezero/internal/atomicfile"
	"lifezero/nn"
)

// CheckpointFile is the checkpoint's index in the checkpoint directory: it
// names the weights file of the last saved step, so the pair changes
// atomically (the weights are written first, under a new name).
const CheckpointFile = "checkpoint.json"

const (
	ckptPrefix  = "ckpt-"
	ckptVersion = 1
)

// checkpoint is the content of CheckpointFile.
type checkpoint struct {
	Version     int         `json:"version"`
	Fingerprint string      `json:"fingerprint"`
	Step        int         `json:"step"`
	Weights     string      `json:"weights"`
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

// saveCheckpoint writes the weights of step, then the index naming them,
// then removes older weights files.
func saveCheckpoint(dir, fp string, step int, w *nn.Weights, losses []LossPoint) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	name := fmt.Sprintf("%s%08d.lznn", ckptPrefix, step)
	if err := w.Save(filepath.Join(dir, name)); err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	data, err := json.MarshalIndent(checkpoint{Version: ckptVersion, Fingerprint: fp, Step: step, Weights: name, Losses: losses}, "", " ")
	if err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, CheckpointFile), data); err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	return removeCheckpoints(dir, name)
}

// loadCheckpoint returns the checkpoint in dir and its weights, or nil when
// there is none or it belongs to other settings.
func loadCheckpoint(dir, fp string) (*checkpoint, *nn.Weights, error) {
	data, err := os.ReadFile(filepath.Join(dir, CheckpointFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("train: checkpoint: %w", err)
	}
	var ck checkpoint
	if err := json.Unmarshal(data, &ck); err != nil {
		return nil, nil, fmt.Errorf("train: checkpoint %s is malformed (delete it to start over): %w", filepath.Join(dir, CheckpointFile), err)
	}
	if ck.Version != ckptVersion || ck.Fingerprint != fp {
		return nil, nil, nil
	}
	if !filepath.IsLocal(ck.Weights) {
		return nil, nil, fmt.Errorf("train: checkpoint %s names weights %q outside its directory", filepath.Join(dir, CheckpointFile), ck.Weights)
	}
	w, err := nn.Load(filepath.Join(dir, ck.Weights))
	if err != nil {
		return nil, nil, fmt.Errorf("train: checkpoint: %w", err)
	}
	return &ck, w, nil
}

// removeCheckpoints deletes the checkpoint files in dir, keeping the
// weights file named keep ("" keeps none; CheckpointFile goes too then).
func removeCheckpoints(dir, keep string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	for _, e := range entries {
		n := e.Name()
		if n == keep || !strings.HasPrefix(n, ckptPrefix) || !strings.HasSuffix(n, ".lznn") {
			continue
		}
		if err := os.Remove(filepath.Join(dir, n)); err != nil {
			return fmt.Errorf("train: checkpoint: %w", err)
		}
	}
	if keep == "" {
		if err := os.Remove(filepath.Join(dir, CheckpointFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("train: checkpoint: %w", err)
		}
	}
	return nil
}

// RemoveCheckpoints deletes the checkpoint that TrainNet left in dir, once
// its result is saved elsewhere.
func RemoveCheckpoints(dir string) error { return removeCheckpoints(dir, "") }
