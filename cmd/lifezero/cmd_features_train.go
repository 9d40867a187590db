package main

import (
	"bufio"
	"cmp"
	"context"
	"flag"
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
	"lifezero/internal/optflags"
	"lifezero/movecands"
	"lifezero/pipelines"
)

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
// progress per epoch and logging each epoch's loss. warm, if not nil, is a
// warm start for lfr and fbt: a model of the same kind and feature set.
func trainFeatureModel(ctx context.Context, data *movecands.Data, cfg featuresTrainOptions, warm featmodel.Model, pr pipelines.Progress, log *slog.Logger) (*trainOutcome, error) {
	if err := cfg.Validate(); err != nil {
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
		c.MaxIterations = cmp.Or(cfg.Epochs, c.MaxIterations)
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
		c.Epochs, c.Factors = cmp.Or(cfg.Epochs, c.Epochs), cmp.Or(cfg.Factors, c.Factors)
		c.LearningRate = cmp.Or(cfg.LearningRate, c.LearningRate)
		c.Sampling, c.Temperature = cmp.Or(cfg.Sampling, c.Sampling), cmp.Or(cfg.Temperature, 1)
		c.ShuffleBuffer = cmp.Or(cfg.ShuffleBuffer, c.ShuffleBuffer)
		c.Optimizer = cmp.Or(cfg.Optimizer, featmodel.OptimizerSGD)
		c.Init, _ = warm.(*featmodel.LFRModel)
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
		c.Epochs, c.Factors = cmp.Or(cfg.Epochs, c.Epochs), cmp.Or(cfg.Factors, c.Factors)
		c.LearningRate = cmp.Or(cfg.LearningRate, c.LearningRate)
		c.Optimizer = cmp.Or(cfg.Optimizer, c.Optimizer)
		c.ShuffleBuffer = cmp.Or(cfg.ShuffleBuffer, c.ShuffleBuffer)
		c.Init, _ = warm.(*featmodel.FBTModel)
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
		settings += fmt.Sprintf(", streamed: files in random order, shuffle buffer %d", cmp.Or(cfg.ShuffleBuffer, featmodel.DefaultShuffleBuffer))
	}
	return &trainOutcome{Model: m, Info: info, Samples: info.Samples, Features: n, Seconds: time.Since(start).Seconds(),
		PeakBytes: peakMemory(), Settings: settings}, nil
}

// lfrPairs says how LFR config c pairs moves, for the settings line.
func lfrPairs(c featmodel.LFRConfig) string {
	switch c.Sampling {
	case featmodel.SamplingSoftmax:
		return fmt.Sprintf("softmax sampling at temperature %g, %d negatives", c.Temperature, cmp.Or(c.Negatives, featmodel.DefaultHardNegatives))
	case featmodel.SamplingWARP:
		return fmt.Sprintf("WARP sampling, %d negatives", cmp.Or(c.Negatives, featmodel.DefaultHardNegatives))
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
	"[--learning-rate X] [--reg-w X] [--reg-v X] [--sampling uniform|softmax|warp] [--negatives N] [--temperature X] [--optimizer sgd|adagrad] " +
	"[--tolerance X] [--seed N] [--no-in-memory] [--shuffle-buffer N] [--init WEIGHTS]"

// featuresTrainFlags are the parsed flags of "lifezero features train":
// the training options (shared with the features-train stage) and the
// command's own inputs and output.
type featuresTrainFlags struct {
	opts     featuresTrainOptions
	data     stringList
	out      string
	initPath string
}

func parseFeaturesTrainFlags(args []string, stderr io.Writer) (*featuresTrainFlags, error) {
	fs := newFlagSet("features train", featuresTrainSynopsis, stderr)
	f := &featuresTrainFlags{opts: defaultFeaturesTrainOptions()}
	if err := optflags.Bind(fs, &f.opts); err != nil {
		return nil, err
	}
	fs.Var(&f.data, "data", "movecands `DATASET` to train on (repeatable; required)")
	fs.StringVar(&f.out, "out", "", "write the weights to `FILE` (required); the loss curve goes to FILE without its extension + -loss.png")
	fs.StringVar(&f.initPath, "init", "", "lfr, fbt: continue training from the weights in `FILE` (a model of the same kind, trained on the same feature set) instead of fresh factors")
	rest, err := parseArgs(fs, args)
	if err != nil {
		return nil, err
	}
	switch {
	case len(rest) > 0:
		return nil, usagef("features train takes no arguments, got %q", rest)
	// The stage defaults to bt; a command line names what it trains.
	case !flagGiven(fs, "model"):
		return nil, usagef("--model bt|lfr|fbt is required")
	case len(f.data) == 0:
		return nil, usagef("--data DATASET is required")
	case f.out == "":
		return nil, usagef("--out FILE is required")
	}
	if err := f.opts.Validate(); err != nil {
		return nil, flagError(err)
	}
	return f, nil
}

// cmdFeaturesTrain trains a feature model on movecands datasets and writes
// its weights, and the loss curve as a PNG next to them.
func cmdFeaturesTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseFeaturesTrainFlags(args, stderr)
	if err != nil {
		return err
	}
	var warm featmodel.Model
	if f.initPath != "" {
		if warm, err = loadInitModel(f.initPath, f.opts.Model); err != nil {
			return err
		}
	}
	d, err := movecands.Open(f.data...)
	if err != nil {
		return err
	}
	log := newLogger(stderr, false)
	o, err := trainFeatureModel(ctx, d, f.opts, warm, commandProgress(stderr, log, "features train"), log)
	if err != nil {
		return err
	}
	if err := featmodel.SaveModel(f.out, o.Model); err != nil {
		return err
	}
	plot := lossPlotPath(f.out)
	if err := evaluate.SaveLinePlotAs(plot, evaluate.LossCurve(o.Model.Name(), o.Info.Loss)); err != nil {
		return err
	}
	last := 0.0
	if n := len(o.Info.Loss); n > 0 {
		last = o.Info.Loss[n-1]
	}
	fmt.Fprintf(stdout, "trained %s on %d positions (%d feature ids): %d epochs in %.1f s, peak memory %.0f MB, final %s %.4f\n",
		o.Model.Name(), o.Samples, o.Features, o.Info.Epochs, o.Seconds, float64(o.PeakBytes)/(1<<20), evaluate.LossName(o.Model.Name()), last)
	fmt.Fprintf(stdout, "  settings: %s\n  wrote %s and %s\n", o.Settings, f.out, plot)
	return nil
}

// flagGiven reports whether the flag name was set on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
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
