package main

import (
	"context"
	"flag"
	"io"
	"os"
	"strings"

	"lifezero/gtpengine"
	"lifezero/nn"
)

const gtpSynopsis = "gtp --features-model FILE|DIR [--features FILE] | --net FILE [--sims N [--batch N]] [--size N] [--komi K] [--seed N] [--sample-moves N] [--no-resign]"

// cmdGtp runs lifezero as a GTP engine on standard input and output.
func cmdGtp(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runGtp(ctx, args, os.Stdin, stdout, stderr)
}

// runGtp is cmdGtp reading its commands from stdin.
func runGtp(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("gtp", gtpSynopsis, stderr)
	model := fs.String("features-model", "", "play by the feature model (bt, lfr or fbt, as the file says) in `FILE` or in DIR/model.weights (a features-train stage's output)")
	set := fs.String("features", "", "the feature set `FILE` (features.json) the model was trained on (default: features.json next to the weights)")
	net := fs.String("net", "", "play by the network weights `FILE` (a train stage's network.lznn): its policy, or PUCT search with --sims")
	sims := fs.Int("sims", 0, "with --net: search `N` simulations per move (0: play the policy's best move)")
	batch := fs.Int("batch", 1, "with --sims: evaluate `N` leaves per network call, under virtual loss (1: the plain sequential search)")
	size := fs.Int("size", 19, "board `size` at start (the network's size with --net when not given)")
	komi := fs.Float64("komi", 7.5, "`komi` at start")
	seed := fs.Uint64("seed", 1, "`seed` of the opening draws and tie-breaks")
	sample := fs.Int("sample-moves", 0, "draw the first `N` moves of each game from the softmax of the player's scores, so that games differ")
	noResign := fs.Bool("no-resign", false, "never resign (by default the engine resigns when the opponent's unconditionally alive area wins the game)")
	rest, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	sizeGiven := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "size" {
			sizeGiven = true
		}
	})
	switch {
	case len(rest) > 0:
		return usagef("gtp takes no arguments, got %q", rest)
	case (*model == "") == (*net == ""):
		return usagef("name one player: --features-model FILE or --net FILE")
	case *set != "" && *model == "":
		return usagef("--features goes with --features-model")
	case *sims != 0 && *net == "":
		return usagef("--sims goes with --net")
	case *sims < 0:
		return usagef("--sims %d: want 0 or more", *sims)
	case *batch != 1 && *sims == 0:
		return usagef("--batch goes with --sims")
	case *batch < 1:
		return usagef("--batch %d: want at least 1", *batch)
	case *sample < 0:
		return usagef("--sample-moves %d: want 0 or more", *sample)
	}
	var player gtpengine.Player
	if *model != "" {
		if player, err = gtpengine.LoadFeaturePlayer(*model, *set); err != nil {
			return err
		}
	} else {
		w, err := nn.Load(*net)
		if err != nil {
			return err
		}
		if !sizeGiven {
			*size = w.Config.Board
		}
		if *sims > 0 {
			var mp *gtpengine.MCTSPlayer
			if mp, err = gtpengine.NewMCTSPlayer(w, *sims); err == nil {
				err = mp.SetBatch(*batch)
			}
			player = mp
		} else {
			player, err = gtpengine.NewNetPlayer(w)
		}
		if err != nil {
			return err
		}
	}
	e, err := gtpengine.New(player, gtpengine.Options{
		Version: strings.TrimPrefix(versionString(), "lifezero "), Size: *size, Komi: *komi, Seed: *seed, SampleMoves: *sample, NoResign: *noResign,
	})
	if err != nil {
		return err
	}
	return e.Serve(ctx, stdin, stdout)
}
