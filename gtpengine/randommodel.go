package gtpengine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"lifezero/featmodel"
	"lifezero/features"
)

// WriteRandomModel writes a Bradley-Terry model over the built-in feature
// set, with weights drawn from a log-normal seeded by seed, into dir as a
// features-train stage writes its output (ModelWeightsFile and
// FeatureSetFile). It is the weakest feature player there is: a baseline
// for matches and a model for tests that need one without training.
func WriteRandomModel(dir string, seed uint64) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	set, err := features.New(features.DefaultConfig())
	if err != nil {
		return fmt.Errorf("random model: %w", err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	gammas := make([]float64, set.NumFeatures())
	for i := range gammas {
		gammas[i] = math.Exp(rng.NormFloat64())
	}
	m, err := featmodel.NewBTModel(gammas)
	if err != nil {
		return fmt.Errorf("random model: %w", err)
	}
	if err := featmodel.SaveModel(filepath.Join(dir, ModelWeightsFile), m); err != nil {
		return fmt.Errorf("random model: %w", err)
	}
	if err := set.Save(filepath.Join(dir, FeatureSetFile)); err != nil {
		return fmt.Errorf("random model: %w", err)
	}
	return nil
}
