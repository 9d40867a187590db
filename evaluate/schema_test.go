package evaluate

import (
	"slices"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"

	"lifezero/datasets"
)

// TestColumnsFollowSchemas checks that the column tables that write and
// read solve results and problems list the columns of their schemas in
// the schemas' order: the writers put column j of a table into field j.
// (datasets' TestWritersUseTheirSchemas checks the files' schemas.)
func TestColumnsFollowSchemas(t *testing.T) {
	fields := func(s *arrow.Schema) []string {
		var out []string
		for _, f := range s.Fields() {
			out = append(out, f.Name)
		}
		return out
	}
	var solve, problems []string
	for _, c := range solveColumns {
		solve = append(solve, c.name)
	}
	for _, c := range problemColumns {
		problems = append(problems, c.name)
	}
	if want := fields(datasets.SolveResultsSchema()); !slices.Equal(solve, want) {
		t.Errorf("solve columns %v,\nschema %v", solve, want)
	}
	if want := fields(datasets.ProblemsSchema()); !slices.Equal(problems, want) {
		t.Errorf("problem columns %v,\nschema %v", problems, want)
	}
}
