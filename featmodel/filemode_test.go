package featmodel

import (
	"testing"

	"lifezero/internal/testdata"
)

func TestSaveModelFileMode(t *testing.T) {
	samples := smallSamples(6, 50)
	m, err := trainers[0].train(t.Context(), samples, newRand(9), nil)
	if err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/model.weights"
	if err := SaveModel(path, m); err != nil {
		t.Fatal(err)
	}
	testdata.CheckFileMode(t, path)
}
