package match

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"lifezero/datasets"
)

// TestResultsDatasetSchema writes a match-results dataset and reads it
// back: its file has exactly datasets.MatchResultsSchema, and every field
// of a game survives the round trip.
func TestResultsDatasetSchema(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ResultsDir)
	games := []Result{
		{Game: 1, Black: "a", White: "b", AColour: "B", Winner: "W", Score: -3.5, RE: "W+3.5", End: "passes", ScoredBy: "area", Moves: 71, Seconds: 1.25, SGF: "(;SZ[9])"},
		{Game: 2, Black: "b", White: "a", AColour: "W", Winner: "B", RE: "B+R", End: "resign", Moves: 12, Seconds: 0.5, SGF: "(;SZ[9];B[aa])"},
	}
	if err := writeDataset(dir, &Summary{Games: games}, settings{A: "a", B: "b", Size: 9}); err != nil {
		t.Fatal(err)
	}
	r, err := datasets.OpenKind(dir, ResultsKind, ResultsSchemaVersion)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got := r.Schema(); !got.Equal(datasets.MatchResultsSchema()) {
		t.Errorf("schema\n%v\nwant\n%v", got, datasets.MatchResultsSchema())
	}
	got, err := ReadResults(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, games) {
		t.Errorf("read back\n%+v\nwant\n%+v", got, games)
	}
}
