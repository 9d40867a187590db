package features

import (
	"testing"

	"lifezero/internal/testdata"
)

func TestSaveFileMode(t *testing.T) {
	e, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/features.json"
	if err := e.Save(path); err != nil {
		t.Fatal(err)
	}
	testdata.CheckFileMode(t, path)
}
