package pipelines

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteSummary writes the results of a run as a table: stage, kind, status,
// seconds, rows.
func WriteSummary(w io.Writer, results []Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "STAGE\tKIND\tSTATUS\tSECONDS\tROWS")
	for _, r := range results {
		rows, secs := "-", "-"
		if r.Status == StatusRan || r.Status == StatusCached {
			rows = fmt.Sprint(r.Rows)
		}
		if r.Status != StatusNotRun {
			secs = fmt.Sprintf("%.1f", r.Duration.Seconds())
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Stage, r.Kind, r.Status, secs, rows)
	}
	return tw.Flush()
}
