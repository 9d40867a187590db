package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strings"

	"lifezero/datasets"
	"lifezero/internal/optflags"
	"lifezero/pipelines"
	"lifezero/progress"
)

func cmdRecords(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("want a subcommand: records import|index|search|bench ...")
	}
	switch args[0] {
	case "import":
		return cmdRecordsImport(ctx, args[1:], stdout, stderr)
	case "index":
		return cmdRecordsIndex(ctx, args[1:], stdout, stderr)
	case "search":
		return cmdRecordsSearch(ctx, args[1:], stdout, stderr)
	case "bench":
		return cmdRecordsBench(ctx, args[1:], stdout, stderr)
	}
	return usagef("unknown subcommand %q (want: import, index, search, bench)", args[0])
}

const recordsImportSynopsis = "records import --out DIR [--append] [--from-date DATE] [--to-date DATE] [--max-games N] [--rows-per-file N] [--skip-bad] PATH..."

// recordsImportFlags are the parsed flags of "lifezero records import": the
// import options (shared with the records-import stage), the output and
// the records.
type recordsImportFlags struct {
	opts  recordsImportOptions
	out   string
	paths []string
}

func parseRecordsImportFlags(args []string, stderr io.Writer) (*recordsImportFlags, error) {
	fs := newFlagSet("records import", recordsImportSynopsis, stderr)
	f := &recordsImportFlags{opts: defaultRecordsImportOptions()}
	if err := optflags.Bind(fs, &f.opts); err != nil {
		return nil, err
	}
	fs.StringVar(&f.out, "out", "", "write the games dataset to `DIR` (required)")
	paths, err := parseArgs(fs, args)
	if err != nil {
		return nil, err
	}
	if f.out == "" {
		return nil, usagef("--out DIR is required")
	}
	if len(paths) == 0 {
		return nil, usagef("name at least one SGF file or directory")
	}
	if err := f.opts.Validate(); err != nil {
		return nil, flagError(err)
	}
	f.paths = paths
	return f, nil
}

func cmdRecordsImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseRecordsImportFlags(args, stderr)
	if err != nil {
		return err
	}
	log := newLogger(stderr, false)
	var pr pipelines.Progress = pipelines.NewLogProgress(log)
	if isTerminal(stderr) {
		pr = pipelines.NewBarProgress(stderr, "import")
	}
	opts := f.opts.importOptions()
	opts.Inputs, opts.OutDir, opts.Stage = f.paths, f.out, "records-import"
	opts.Progress = progress.Counter(pr, "SGF bytes")
	opts.OnSkip = func(s datasets.SkippedGame) { log.Warn("game skipped", slog.String("where", s.String())) }
	if f.opts.Append {
		m, sum, err := datasets.AppendRecords(ctx, opts)
		pr.Finish()
		if err != nil {
			return nameSkipBad(err, "add --skip-bad")
		}
		return printAppendSummary(stdout, m, sum, f.out)
	}
	m, err := datasets.ImportRecords(ctx, opts)
	pr.Finish()
	if err != nil {
		return nameSkipBad(err, "add --skip-bad")
	}
	return printImportSummary(stdout, m, f.out)
}

// printAppendSummary reports one append: what it added, what it skipped
// and why, and the dataset's size after it.
func printAppendSummary(w io.Writer, m *datasets.Manifest, s datasets.ImportSummary, dir string) error {
	fmt.Fprintf(w, "appended %d games from %d files (%d game trees read) to %s: now %d rows in %d files\n",
		s.Written, s.Files, s.Read, dir, m.Rows, len(m.Files))
	printSkips(w, s.Skipped)
	return nil
}

// printSkips lists skip counts by reason, in reason order.
func printSkips(w io.Writer, skipped map[string]int) {
	reasons := make([]string, 0, len(skipped))
	for r := range skipped {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		fmt.Fprintf(w, "  skipped %d: %s\n", skipped[r], r)
	}
}

// skipBadHint is how package datasets tells its callers to set
// ImportOptions.SkipBad; a command names its own flag or param instead.
const skipBadHint = "set SkipBad"

// nameSkipBad rewrites the import error's advice to set SkipBad into the
// user's terms (the --skip-bad flag, the skip_bad param), keeping the
// error's chain.
func nameSkipBad(err error, hint string) error {
	msg := err.Error()
	if !strings.Contains(msg, skipBadHint) {
		return err
	}
	return &renamedError{msg: strings.ReplaceAll(msg, skipBadHint, hint), err: err}
}

// renamedError is err with another message.
type renamedError struct {
	msg string
	err error
}

func (e *renamedError) Error() string { return e.msg }
func (e *renamedError) Unwrap() error { return e.err }

func printImportSummary(w io.Writer, m *datasets.Manifest, dir string) error {
	s, err := datasets.ImportSummaryOf(m)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "imported %d games from %d files (%d game trees read) into %s: %d rows in %d files\n",
		s.Written, s.Files, s.Read, dir, m.Rows, len(m.Files))
	if s.Duplicates > 0 {
		fmt.Fprintf(w, "  %d duplicate game ids\n", s.Duplicates)
	}
	printSkips(w, s.Skipped)
	return nil
}
