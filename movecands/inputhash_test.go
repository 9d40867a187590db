package movecands

import (
	"testing"

	"lifezero/datasets"
	"lifezero/internal/testdata"
)

// Every option that shapes the output is in the cache key, including any
// added later (the check finds fields by reflection).
func TestInputHashCoversOptions(t *testing.T) {
	base := Options{LearnDiamonds: 2, Dates: datasets.DateRange{From: "2001", To: "2002"}, MaxGames: 3,
		PositionsPerGame: 4, Seed: 5, Workers: 2, RowsPerFile: 7, Stage: "s"}
	testdata.CheckHashCoversFields(t, base, func(o Options) string {
		h, err := inputHash(o, `{"set":1}`, nil)
		if err != nil {
			t.Fatal(err)
		}
		return h
	})
	a, _ := inputHash(base, `{"set":1}`, nil)
	b, _ := inputHash(base, `{"set":2}`, nil)
	if a == b {
		t.Error("the feature set does not change the hash")
	}
}
