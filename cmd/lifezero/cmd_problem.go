package main

import (
	"context"
	"fmt"
	"io"

	"lifezero/game"
)

func cmdProblem(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("want a subcommand: problem show FILE...")
	}
	switch args[0] {
	case "show":
		return cmdProblemShow(ctx, args[1:], stdout, stderr)
	}
	return usagef("unknown subcommand %q (want: show)", args[0])
}

func cmdProblemShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("problem show", "problem show FILE...  (a problem's .json or .sgf)", stderr)
	files, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usagef("problem show: name at least one problem file")
	}
	for i, f := range files {
		pr, err := game.LoadProblem(f)
		if err != nil {
			return err
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "problem %s (%s)\n", pr.ID, f)
		fmt.Fprint(stdout, pr.Render())
		fmt.Fprintln(stdout, problemFacts(pr))
	}
	return nil
}

// problemFacts is the line under the board: ko rules, winner, FTL d, answer.
func problemFacts(pr *game.Problem) string {
	pos := pr.Start
	s := fmt.Sprintf("ko: B %v, W %v", pos.KoRule(game.Black), pos.KoRule(game.White))
	if pr.Winner == game.Black || pr.Winner == game.White {
		s += "   winner: " + pr.Winner.String()
	}
	if pr.FTLD > 0 {
		s += fmt.Sprintf("   ftl_d: %d", pr.FTLD)
	}
	if pr.Answer != game.NoPoint {
		s += "   book move: " + pos.GTPString(pr.Answer)
	}
	return s
}
