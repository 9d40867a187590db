package main

import (
	"fmt"

	"lifezero/featmodel"
	"lifezero/pipelines"
)

// featuresTrainOptions say which feature model to train and how, one type
// for the features-train stage's params and the flags of "lifezero features
// train" (optflags: flag = param with '-' for '_'; in_memory's is
// --no-in-memory). Zero values take the featmodel package's defaults. What
// the stage takes from its inputs (the movecands data, a warm start) the
// command takes as flags of its own (--data, --init, --out).
//
// The JSON form is the stage's input hash: keep the fields' names and
// order, so that models cached before stay valid.
type featuresTrainOptions struct {
	Model        string  `yaml:"model" help:"the model: bt (Bradley-Terry by MM), lfr (latent factor ranking) or fbt (factorization Bradley-Terry); the command requires it"`
	Epochs       int     `yaml:"epochs" help:"passes over the data; bt: MM iterations (0: the model's default, bt 200 with tolerance, lfr 10, fbt 2)"`
	Factors      int     `yaml:"factors" help:"latent factors per feature, k (lfr, fbt; 0: 8)"`
	LearningRate float64 `yaml:"learning_rate" help:"step size (lfr, fbt; 0: lfr 0.0005, fbt 0.1)"`
	RegW         float64 `yaml:"reg_w" help:"L2 regularization of the feature weights (lfr, fbt)"`
	RegV         float64 `yaml:"reg_v" help:"L2 regularization of the latent factors (lfr, fbt)"`
	Sampling     string  `yaml:"sampling" help:"lfr: how the other moves paired with the played one are drawn: uniform, softmax (in proportion to exp(score/temperature) under the current model) or warp (uniformly until one scores within 1 of the played move, weighted by the rank that suggests) (empty: warp)"`
	Negatives    int     `yaml:"negatives" help:"lfr: other legal moves paired with the played move per position and epoch (0: uniform all, softmax and warp 16)"`
	Temperature  float64 `yaml:"temperature" help:"lfr, softmax sampling: the scores are divided by it before the softmax (0: 1)"`
	Optimizer    string  `yaml:"optimizer" help:"lfr, fbt: sgd or adagrad (empty: lfr sgd, fbt adagrad)"`
	Tolerance    float64 `yaml:"tolerance" help:"bt: stop once no log-gamma moves more than this in an iteration (0: run every iteration)"`
	Seed         uint64  `yaml:"seed" help:"seed of the initial factors and the sample order (lfr, fbt)"`
	InMemory     bool    `yaml:"in_memory" help:"lfr, fbt: load the positions in memory (exact shuffling, faster) instead of streaming them from disk every epoch (bt packs them in memory anyway)"`
	// ShuffleBuffer bounds the memory of streaming: each position held costs
	// its candidates' feature ids, tens of KB on 19x19.
	ShuffleBuffer int `yaml:"shuffle_buffer" help:"lfr, fbt streamed from disk (in_memory off): positions held in the shuffle buffer, under a random order of the data files each epoch (0: 4096; tens of KB each on 19x19)"`
}

// defaultFeaturesTrainOptions are the defaults of both the stage and the
// command, the featmodel package's own.
func defaultFeaturesTrainOptions() featuresTrainOptions {
	return featuresTrainOptions{Model: "bt", RegW: featmodel.DefaultFBTConfig().RegW, RegV: featmodel.DefaultFBTConfig().RegV,
		Tolerance: featmodel.DefaultBTConfig().Tolerance, Seed: 1, InMemory: true}
}

// Validate catches bad params when the pipeline is loaded, at their line,
// and bad flags (flagError names the flag).
func (o *featuresTrainOptions) Validate() error {
	switch {
	case o.Model != "bt" && o.Model != "lfr" && o.Model != "fbt":
		return &pipelines.ParamError{Key: "model", Msg: fmt.Sprintf("%q: want bt, lfr or fbt", o.Model)}
	case o.Sampling != "" && o.Sampling != featmodel.SamplingUniform && o.Sampling != featmodel.SamplingSoftmax && o.Sampling != featmodel.SamplingWARP:
		return &pipelines.ParamError{Key: "sampling", Msg: fmt.Sprintf("%q: want uniform, softmax or warp", o.Sampling)}
	case o.Optimizer != "" && o.Optimizer != featmodel.OptimizerAdagrad && o.Optimizer != featmodel.OptimizerSGD:
		return &pipelines.ParamError{Key: "optimizer", Msg: fmt.Sprintf("%q: want adagrad or sgd", o.Optimizer)}
	}
	for _, c := range []struct {
		key string
		v   float64
	}{{"epochs", float64(o.Epochs)}, {"factors", float64(o.Factors)}, {"learning_rate", o.LearningRate}, {"reg_w", o.RegW},
		{"reg_v", o.RegV}, {"negatives", float64(o.Negatives)}, {"temperature", o.Temperature}, {"tolerance", o.Tolerance},
		{"shuffle_buffer", float64(o.ShuffleBuffer)}} {
		if c.v < 0 {
			return &pipelines.ParamError{Key: c.key, Msg: "must not be negative"}
		}
	}
	return nil
}
