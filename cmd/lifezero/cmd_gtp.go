package main

import (
	"context"
	"io"
	"os"
	"strings"

	"lifezero/gtpengine"
	"lifezero/internal/optflags"
	"lifezero/nn"
)

const gtpSynopsis = "gtp --features-model FILE|DIR [--features FILE] | --net FILE [--simulations N [--batch N]] [--size N] [--komi K] [--seed N] [--sample-moves N] [--no-resign]"

// gtpFlags are the parsed flags of "lifezero gtp": the options and the
// player.
type gtpFlags struct {
	opts  gtpOptions
	model string // a feature model's weights file or directory
	set   string // its feature set file
	net   string // network weights
}

func parseGtpFlags(args []string, stderr io.Writer) (*gtpFlags, error) {
	fs := newFlagSet("gtp", gtpSynopsis, stderr)
	f := &gtpFlags{opts: defaultGtpOptions()}
	if err := optflags.Bind(fs, &f.opts); err != nil {
		return nil, err
	}
	fs.StringVar(&f.model, "features-model", "", "play by the feature model (bt, lfr or fbt, as the file says) in `FILE` or in DIR/model.weights (a features-train stage's output)")
	fs.StringVar(&f.set, "features", "", "the feature set `FILE` (features.json) the model was trained on (default: features.json next to the weights)")
	fs.StringVar(&f.net, "net", "", "play by the network weights `FILE` (a train stage's network.lznn): its policy, or PUCT search with --simulations")
	rest, err := parseArgs(fs, args)
	if err != nil {
		return nil, err
	}
	switch {
	case len(rest) > 0:
		return nil, usagef("gtp takes no arguments, got %q", rest)
	case (f.model == "") == (f.net == ""):
		return nil, usagef("name one player: --features-model FILE or --net FILE")
	case f.set != "" && f.model == "":
		return nil, usagef("--features goes with --features-model")
	case f.opts.Simulations != 0 && f.net == "":
		return nil, usagef("--simulations goes with --net")
	}
	if err := f.opts.Validate(); err != nil {
		return nil, flagError(err)
	}
	return f, nil
}

// cmdGtp runs lifezero as a GTP engine on standard input and output.
func cmdGtp(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runGtp(ctx, args, os.Stdin, stdout, stderr)
}

// runGtp is cmdGtp reading its commands from stdin.
func runGtp(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	f, err := parseGtpFlags(args, stderr)
	if err != nil {
		return err
	}
	player, netBoard, err := f.player()
	if err != nil {
		return err
	}
	e, err := gtpengine.New(player, f.opts.engineOptions(strings.TrimPrefix(versionString(), "lifezero "), netBoard))
	if err != nil {
		return err
	}
	return e.Serve(ctx, stdin, stdout)
}

// player loads the player the flags name, with the network's board size
// (0 for a feature model).
func (f *gtpFlags) player() (gtpengine.Player, int, error) {
	if f.model != "" {
		p, err := gtpengine.LoadFeaturePlayer(f.model, f.set)
		return p, 0, err
	}
	w, err := nn.Load(f.net)
	if err != nil {
		return nil, 0, err
	}
	if f.opts.Simulations == 0 {
		p, err := gtpengine.NewNetPlayer(w)
		return p, w.Config.Board, err
	}
	mp, err := gtpengine.NewMCTSPlayer(w, f.opts.Simulations)
	if err == nil {
		err = mp.SetBatch(f.opts.Batch)
	}
	return mp, w.Config.Board, err
}
