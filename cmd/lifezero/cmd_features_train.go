package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"lifezero/evaluate"
	"lifezero/featmodel"
	"lifezero/movecands"
	"lifezero/pipelines"
)

// FeatureTrainConfig is what "features train" and the features-train stage
// share: which model, and how to train it. Zero values take the train
// package's defaults.
type FeatureTrainConfig struct {
	Model        string  `yaml:"model" help:"the model: bt (Bradley-Terry by MM), lfr (latent factor ranking) or fbt (factorization Bradley-Terry)"`
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
	ShuffleBuffer int `yaml:"shuffle_buffer" help:"lfr, fbt streamed from disk: positions held in the shuffle buffer, under a random order of the data files each epoch (0: 4096)"`

	// init is a warm start for lfr and fbt (features train --init): a model
	// of the same kind and feature set. Not a stage param.
	init featmodel.Model
}

func defaultFeatureTrainConfig() FeatureTrainConfig {
	return FeatureTrainConfig{Model: "bt", RegW: featmodel.DefaultFBTConfig().RegW, RegV: featmodel.DefaultFBTConfig().RegV,
		Tolerance: featmodel.DefaultBTConfig().Tolerance, Seed: 1, InMemory: true}
}

func (c FeatureTrainConfig) check() error {
	switch {
	case c.Model != "bt" && c.Model != "lfr" && c.Model != "fbt":
		return &pipelines.ParamError{Key: "model", Msg: fmt.Sprintf("%q: want bt, lfr or fbt", c.Model)}
	case c.Epochs < 0:
		return &pipelines.ParamError{Key: "epochs", Msg: "must not be negative"}
	case c.Factors < 0:
		return &pipelines.ParamError{Key: "factors", Msg: "must not be negative"}
	case c.LearningRate < 0:
		return &pipelines.ParamError{Key: "learning_rate", Msg: "must not be negative"}
	case c.RegW < 0 || c.RegV < 0:
		return &pipelines.ParamError{Key: "reg_w", Msg: "reg_w and reg_v must not be negative"}
	case c.Sampling != "" && c.Sampling != featmodel.SamplingUniform && c.Sampling != featmodel.SamplingSoftmax && c.Sampling != featmodel.SamplingWARP:
		return &pipelines.ParamError{Key: "sampling", Msg: fmt.Sprintf("%q: want uniform, softmax or warp", c.Sampling)}
	case c.Negatives < 0:
		return &pipelines.ParamError{Key: "negatives", Msg: "must not be negative"}
	case c.Temperature < 0:
		return &pipelines.ParamError{Key: "temperature", Msg: "must not be negative"}
	case c.Optimizer != "" && c.Optimizer != featmodel.OptimizerAdagrad && c.Optimizer != featmodel.OptimizerSGD:
		return &pipelines.ParamError{Key: "optimizer", Msg: fmt.Sprintf("%q: want adagrad or sgd", c.Optimizer)}
	case c.Tolerance < 0:
		return &pipelines.ParamError{Key: "tolerance", Msg: "must not be negative"}
	case c.ShuffleBuffer < 0:
		return &pipelines.ParamError{Key: "shuffle_buffer", Msg: "must not be negative"}
	}
	return nil
}

// trainOutcome is a trained model and how its training went.
type trainOutcome struct {
	Model     featmodel.Model
	Info      featmodel.TrainInfo
	Samples   int
	Features  int
	Seconds   float64
	PeakBytes uint64
	Settings  string
}

func (o *trainOutcome) report() evaluate.FeatureTrainReport {
	return evaluate.FeatureTrainReport{Model: o.Model.Name(), Samples: o.Samples, Features: o.Features, Settings: o.Settings,
		Seconds: o.Seconds, PeakBytes: o.PeakBytes, Loss: o.Info.Loss}
}

// trainFeatureModel trains the model cfg names on data, showing one step of
// progress per epoch and logging each epoch's loss.
func trainFeatureModel(ctx context.Context, data *movecands.Data, cfg FeatureTrainConfig, pr pipelines.Progress, log *slog.Logger) (*trainOutcome, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	var src featmodel.SampleSource = data
	inMemory := cfg.InMemory && cfg.Model != "bt" // MM packs the data in memory itself, in a single pass
	if inMemory {
		pr.Start(0, "loading positions")
		samples, err := data.Load(ctx)
		pr.Finish()
		if err != nil {
			return nil, err
		}
		src = samples
	}
	n := data.NumFeatures()
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x66656174)) // "feat"
	epochs := 0
	// The bar steps by MM iteration for bt, by position for lfr and fbt
	// (Visited), whose epochs take minutes to hours on millions of positions.
	progress := func(epoch int, loss float64) {
		if cfg.Model == "bt" {
			pr.Add(1)
		}
		log.Info("epoch done", "model", cfg.Model, "epoch", epoch, "of", epochs, "loss", loss)
	}
	start := time.Now()
	var (
		m        featmodel.Model
		info     featmodel.TrainInfo
		settings string
		err      error
	)
	switch cfg.Model {
	case "bt":
		c := featmodel.DefaultBTConfig()
		c.NumFeatures, c.Tolerance, c.OnEpoch = n, cfg.Tolerance, progress
		c.MaxIterations = orDefault(cfg.Epochs, c.MaxIterations)
		epochs = c.MaxIterations
		settings = fmt.Sprintf("MM, at most %d iterations, tolerance %g", c.MaxIterations, c.Tolerance)
		pr.Start(epochs, "bt MM iterations")
		var bt *featmodel.BTModel
		if bt, err = featmodel.TrainBT(ctx, src, c); err == nil {
			m, info = bt, bt.Info
		}
	case "lfr":
		c := featmodel.DefaultLFRConfig()
		c.NumFeatures, c.OnEpoch, c.RegW, c.RegV, c.Negatives = n, progress, cfg.RegW, cfg.RegV, cfg.Negatives
		c.Epochs, c.Factors = orDefault(cfg.Epochs, c.Epochs), orDefault(cfg.Factors, c.Factors)
		c.LearningRate = orDefaultF(cfg.LearningRate, c.LearningRate)
		c.Sampling, c.Temperature = orDefaultS(cfg.Sampling, c.Sampling), orDefaultF(cfg.Temperature, 1)
		c.ShuffleBuffer = orDefault(cfg.ShuffleBuffer, c.ShuffleBuffer)
		c.Optimizer = orDefaultS(cfg.Optimizer, featmodel.OptimizerSGD)
		c.Init, _ = cfg.init.(*featmodel.LFRModel)
		if c.Init != nil {
			c.Factors = c.Init.Factors()
		}
		epochs = c.Epochs
		settings = fmt.Sprintf("%s, k %d, learning rate %g, reg_w %g, reg_v %g, %s, %d epochs, seed %d",
			c.Optimizer, c.Factors, c.LearningRate, c.RegW, c.RegV, lfrPairs(c), c.Epochs, cfg.Seed)
		if c.Init != nil {
			settings += ", warm start"
		}
		c.Visited = pr.Add
		pr.Start(epochs*int(data.Positions()), fmt.Sprintf("lfr, %d epochs: positions", epochs))
		var lfr *featmodel.LFRModel
		if lfr, err = featmodel.TrainLFR(ctx, src, c, rng); err == nil {
			m, info = lfr, lfr.Info
		}
	default: // "fbt", checked above
		c := featmodel.DefaultFBTConfig()
		c.NumFeatures, c.OnEpoch, c.RegW, c.RegV = n, progress, cfg.RegW, cfg.RegV
		c.Epochs, c.Factors = orDefault(cfg.Epochs, c.Epochs), orDefault(cfg.Factors, c.Factors)
		c.LearningRate = orDefaultF(cfg.LearningRate, c.LearningRate)
		c.Optimizer = orDefaultS(cfg.Optimizer, c.Optimizer)
		c.ShuffleBuffer = orDefault(cfg.ShuffleBuffer, c.ShuffleBuffer)
		c.Init, _ = cfg.init.(*featmodel.FBTModel)
		if c.Init != nil {
			c.Factors = c.Init.Factors()
		}
		epochs = c.Epochs
		settings = fmt.Sprintf("%s, k %d, learning rate %g, reg_w %g, reg_v %g, %d epochs, seed %d",
			c.Optimizer, c.Factors, c.LearningRate, c.RegW, c.RegV, c.Epochs, cfg.Seed)
		if c.Init != nil {
			settings += ", warm start"
		}
		c.Visited = pr.Add
		pr.Start(epochs*int(data.Positions()), fmt.Sprintf("fbt, %d epochs: positions", epochs))
		var fbt *featmodel.FBTModel
		if fbt, err = featmodel.TrainFBT(ctx, src, c, rng); err == nil {
			m, info = fbt, fbt.Info
		}
	}
	pr.Finish()
	if err != nil {
		return nil, err
	}
	switch {
	case inMemory:
		settings += ", positions in memory"
	case cfg.Model != "bt":
		settings += fmt.Sprintf(", streamed: files in random order, shuffle buffer %d", orDefault(cfg.ShuffleBuffer, featmodel.DefaultShuffleBuffer))
	}
	return &trainOutcome{Model: m, Info: info, Samples: info.Samples, Features: n, Seconds: time.Since(start).Seconds(),
		PeakBytes: peakMemory(), Settings: settings}, nil
}

func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

func orDefaultF(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

func orDefaultS(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// lfrPairs says how LFR config c pairs moves, for the settings line.
func lfrPairs(c featmodel.LFRConfig) string {
	switch c.Sampling {
	case featmodel.SamplingSoftmax:
		return fmt.Sprintf("softmax sampling at temperature %g, %d negatives", c.Temperature, orDefault(c.Negatives, featmodel.DefaultHardNegatives))
	case featmodel.SamplingWARP:
		return fmt.Sprintf("WARP sampling, %d negatives", orDefault(c.Negatives, featmodel.DefaultHardNegatives))
	}
	if c.Negatives == 0 {
		return "uniform sampling, all negatives"
	}
	return fmt.Sprintf("uniform sampling, %d negatives", c.Negatives)
}

// peakMemory returns the process's peak resident memory (Linux VmHWM), or
// else the memory the Go runtime obtained from the OS.
func peakMemory() uint64 {
	if f, err := os.Open("/proc/self/status"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
				if kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64); err == nil {
					return kb << 10
				}
			}
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.Sys
}

const featuresTrainSynopsis = "features train --model bt|lfr|fbt --data DATASET[,DATASET] --out WEIGHTS [--epochs N] [--factors K] " +
	"[--lr X] [--reg-w X] [--reg-v X] [--sampling uniform|softmax|warp] [--negatives N] [--temperature X] [--optimizer sgd|adagrad] [--tolerance X] [--seed N] [--stream] [--shuffle-buffer N] [--init WEIGHTS]"

// cmdFeaturesTrain trains a feature model on movecands datasets and writes
// its weights, and the loss curve as a PNG next to them.
func cmdFeaturesTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("features train", featuresTrainSynopsis, stderr)
	cfg := defaultFeatureTrainConfig()
	var data stringList
	fs.StringVar(&cfg.Model, "model", "", "`model` to train: bt, lfr or fbt (required)")
	fs.Var(&data, "data", "movecands `DATASET` to train on (repeatable; required)")
	out := fs.String("out", "", "write the weights to `FILE` (required); the loss curve goes to FILE without its extension + -loss.png")
	fs.IntVar(&cfg.Epochs, "epochs", 0, "passes over the data, bt: MM iterations (0: the model's default)")
	fs.IntVar(&cfg.Factors, "factors", 0, "latent factors k of lfr and fbt (0: 8)")
	fs.Float64Var(&cfg.LearningRate, "lr", 0, "learning rate of lfr and fbt (0: the model's default)")
	fs.Float64Var(&cfg.RegW, "reg-w", cfg.RegW, "L2 regularization of the weights (lfr, fbt)")
	fs.Float64Var(&cfg.RegV, "reg-v", cfg.RegV, "L2 regularization of the factors (lfr, fbt)")
	fs.StringVar(&cfg.Sampling, "sampling", "", "lfr: how other moves are paired with the played one: uniform, softmax or warp (default warp)")
	fs.IntVar(&cfg.Negatives, "negatives", 0, "lfr: other moves paired with the played one per position (0: uniform all, softmax and warp 16)")
	fs.Float64Var(&cfg.Temperature, "temperature", 0, "lfr, softmax sampling: divides the scores before the softmax (0: 1)")
	fs.StringVar(&cfg.Optimizer, "optimizer", "", "lfr, fbt: sgd or adagrad (default: lfr sgd, fbt adagrad)")
	fs.Float64Var(&cfg.Tolerance, "tolerance", cfg.Tolerance, "bt: stop when no log-gamma moves more than this")
	fs.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed of the initial factors and the sample order")
	stream := fs.Bool("stream", false, "stream the positions from disk every epoch instead of loading them in memory")
	fs.IntVar(&cfg.ShuffleBuffer, "shuffle-buffer", 0, "lfr, fbt with --stream: positions in the shuffle buffer (0: 4096; tens of KB each on 19x19)")
	initPath := fs.String("init", "", "lfr, fbt: continue training from the weights in `FILE` (a model of the same kind, trained on the same feature set) instead of fresh factors")
	rest, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(rest) > 0:
		return usagef("features train takes no arguments, got %q", rest)
	case cfg.Model == "":
		return usagef("--model bt|lfr|fbt is required")
	case len(data) == 0:
		return usagef("--data DATASET is required")
	case *out == "":
		return usagef("--out FILE is required")
	}
	cfg.InMemory = !*stream
	if err := cfg.check(); err != nil {
		return usagef("%v", err)
	}
	if *initPath != "" {
		if cfg.init, err = loadInitModel(*initPath, cfg.Model); err != nil {
			return err
		}
	}
	d, err := movecands.Open(data...)
	if err != nil {
		return err
	}
	log := newLogger(stderr, false)
	o, err := trainFeatureModel(ctx, d, cfg, commandProgress(stderr, log, "features train"), log)
	if err != nil {
		return err
	}
	if err := featmodel.SaveModel(*out, o.Model); err != nil {
		return err
	}
	plot := lossPlotPath(*out)
	if err := evaluate.SaveLinePlotAs(plot, evaluate.LossCurve(o.Model.Name(), o.Info.Loss)); err != nil {
		return err
	}
	last := 0.0
	if n := len(o.Info.Loss); n > 0 {
		last = o.Info.Loss[n-1]
	}
	fmt.Fprintf(stdout, "trained %s on %d positions (%d feature ids): %d epochs in %.1f s, peak memory %.0f MB, final %s %.4f\n",
		o.Model.Name(), o.Samples, o.Features, o.Info.Epochs, o.Seconds, float64(o.PeakBytes)/(1<<20), evaluate.LossName(o.Model.Name()), last)
	fmt.Fprintf(stdout, "  settings: %s\n  wrote %s and %s\n", o.Settings, *out, plot)
	return nil
}

// loadInitModel reads the weights a warm start continues from and checks
// that they are a model of the kind being trained.
func loadInitModel(path, model string) (featmodel.Model, error) {
	if model == "bt" {
		return nil, usagef("--init applies to lfr and fbt, not bt")
	}
	m, err := featmodel.LoadModel(path)
	if err != nil {
		return nil, err
	}
	if m.Name() != model {
		return nil, fmt.Errorf("--init %s: a %s model, and --model is %s", path, m.Name(), model)
	}
	return m, nil
}

// lossPlotPath is where the loss curve of the weights file goes.
func lossPlotPath(weights string) string {
	return strings.TrimSuffix(weights, filepath.Ext(weights)) + "-loss.png"
}
