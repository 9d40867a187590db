package main

import (
	"context"
	"io"

	"lifezero/features"
	"lifezero/internal/optflags"
)

func cmdFeatures(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("want a subcommand: features list|build|train")
	}
	switch args[0] {
	case "list":
		return cmdFeaturesList(ctx, args[1:], stdout, stderr)
	case "build":
		return cmdFeaturesBuild(ctx, args[1:], stdout, stderr)
	case "train":
		return cmdFeaturesTrain(ctx, args[1:], stdout, stderr)
	}
	return usagef("unknown subcommand %q (want: list, build or train)", args[0])
}

// cmdFeaturesList prints the features of a feature set: id, group, name.
func cmdFeaturesList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("features list", "features list [--set FILE] [--no-pattern3-liberties] [--groups] [--describe]", stderr)
	setFile := fs.String("set", "", "feature set `file` (JSON, saved with a trained model); default: the built-in set")
	builtin := defaultFeatureSetOptions() // as the movecands stage's params
	if err := optflags.Bind(fs, &builtin); err != nil {
		return err
	}
	groups := fs.Bool("groups", false, "list the groups (first id, count, meaning) instead of the features")
	describe := fs.Bool("describe", false, "draw each pattern under its name")
	rest, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("features list takes no arguments, got %q", rest)
	}
	var e *features.Extractor
	if *setFile != "" {
		e, err = features.Load(*setFile)
	} else {
		e, err = builtin.builtinSet()
	}
	if err != nil {
		return err
	}
	if *groups {
		return e.WriteGroups(stdout)
	}
	return e.WriteList(stdout, *describe)
}
