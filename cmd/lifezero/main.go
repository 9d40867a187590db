// Command lifezero runs lifezero pipelines and their tools.
//
//	lifezero run [FILE] [--only STAGE] [--force STAGE]   run a pipeline (default pipeline.yaml)
//	lifezero stages                                      list the stage kinds and their params
//	lifezero records import --out DIR PATH...            import SGF game records
//	lifezero problem show FILE...                        draw L&D problems
//	lifezero solve FILE|DIR... [--budget N] [--json] ... solve L&D problems by RZS
//	lifezero selfplay --out DIR [--net FILE] ...          FTL self-play games and samples
//	lifezero train --out DIR [--init FILE] SAMPLES...     train the network on self-play samples
//	lifezero features build|train ...                    move-prediction data, feature models
//	lifezero movepred --data DIR --model FILE...         move prediction of feature models
//	lifezero gtp --features-model FILE | --net FILE      a GTP engine on stdin and stdout
//	lifezero match --black CMD --white CMD --out DIR     games between two GTP engines
//	lifezero tsumego train --out DIR COLLECTION         move priors for the solver from tsumego
//	lifezero worker --temporal HOST:PORT                 run stages of pipelines submitted with run --temporal
//	lifezero version                                     print the version
//
// It is thin: it parses flags and calls the packages. A subcommand is one
// file (cmd_NAME.go) and one row of the table in commands; a stage kind is
// one file (stage_NAME.go) and one row of the table in stages.go.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

// command is a subcommand: run gets the arguments after its name.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"run", "run a pipeline: run [FILE=pipeline.yaml] [--only STAGE] [--force STAGE]", cmdRun},
		{"stages", "list the stage kinds a pipeline may use, with their params", cmdStages},
		{"records", "game records: records import --out DIR [--from-date DATE] [--to-date DATE] [--max-games N] PATH...", cmdRecords},
		{"problem", "L&D problems: problem show FILE...", cmdProblem},
		{"solve", "solve L&D problems: " + solveSynopsis, cmdSolve},
		{"selfplay", "FTL self-play: " + selfplaySynopsis, cmdSelfplay},
		{"train", "train the network: " + trainSynopsis, cmdTrain},
		{"features", "move features: features list|build|train (features COMMAND -h for each)", cmdFeatures},
		{"movepred", "move prediction: " + movepredSynopsis, cmdMovepred},
		{"gtp", "GTP engine on stdin/stdout: " + gtpSynopsis, cmdGtp},
		{"match", "games between two GTP engines: " + matchSynopsis, cmdMatch},
		{"tsumego", "life-and-death move knowledge: " + tsumegoSynopsis, cmdTsumego},
		{"patterns", "relevance-zone pattern databases: " + patternsSynopsis, cmdPatterns},
		{"worker", "run pipeline stages for Temporal: " + workerSynopsis, cmdWorker},
		{"version", "print the version", cmdVersion},
	}
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	var caught atomic.Value // the os.Signal that stopped the command
	go func() {
		s := <-sigs
		caught.Store(s)
		signal.Stop(sigs) // the first Ctrl-C cancels cleanly; a second one kills at once
		cancel()
	}()
	code := realMain(ctx, os.Args[1:], os.Stdout, os.Stderr)
	signal.Stop(sigs)
	sig, _ := caught.Load().(os.Signal)
	os.Exit(exitCode(code, sig))
}

// exitCode is the exit status of a command that returned code: 128+n when
// signal n (SIGINT, SIGTERM) stopped it, as shells report a process killed
// by that signal (130 after Ctrl-C), so that scripts see it was cut short
// even though it stopped cleanly.
func exitCode(code int, sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return code
}

// usageError marks errors in the command line itself (exit status 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// realMain runs the command line args and returns the exit status.
func realMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return 0
	}
	for _, c := range commands() {
		if c.name != name {
			continue
		}
		err := c.run(ctx, args[1:], stdout, stderr)
		var ue *usageError
		switch {
		case err == nil, errors.Is(err, flag.ErrHelp):
			return 0
		case errors.As(err, &ue):
			fmt.Fprintf(stderr, "lifezero %s: %v\n", name, err)
			return 2
		default:
			fmt.Fprintf(stderr, "lifezero %s: %v\n", name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "lifezero: unknown command %q\n\n", name)
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: lifezero COMMAND [ARGS]\n\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun \"lifezero COMMAND -h\" for a command's flags.")
}
