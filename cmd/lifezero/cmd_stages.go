package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"lifezero/pipelines"
)

func cmdStages(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("stages", "stages", stderr)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("stages takes no arguments, got %v", pos)
	}
	reg, err := newRegistry()
	if err != nil {
		return err
	}
	for i, k := range reg.Kinds() {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "%s (version %d)\n", k.Name, k.Version)
		fmt.Fprint(stdout, indent(wrap(k.Doc, 76), "    "))
		if k.Params == nil {
			fmt.Fprintln(stdout, "    params: none")
			continue
		}
		fields, err := pipelines.ParamFields(k.Params)
		if err != nil {
			return fmt.Errorf("kind %s: %w", k.Name, err)
		}
		fmt.Fprintln(stdout, "    params:")
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		for _, f := range fields {
			fmt.Fprintf(tw, "      %s\t%s\tdefault %s\t%s\n", f.Key, f.Type, f.Default, f.Help)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// wrap breaks text into lines of at most width characters at spaces.
func wrap(text string, width int) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(text) {
		if n > 0 && n+1+len(w) > width {
			b.WriteByte('\n')
			n = 0
		} else if n > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	if n > 0 {
		b.WriteByte('\n')
	}
	return b.String()
}

func indent(text, prefix string) string {
	if text == "" {
		return ""
	}
	lines := strings.SplitAfter(strings.TrimSuffix(text, "\n"), "\n")
	return prefix + strings.Join(lines, prefix) + "\n"
}
