package nn

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLoadNotRegular: issue 12, item 4. A weights or optimiser state path
// that is a device (or a symlink to one) was read until memory ran out.
func TestLoadNotRegular(t *testing.T) {
	link := filepath.Join(t.TempDir(), "network.lznn")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(link); err == nil || err.Error() != "nn: load weights: "+link+": not a regular file (it is a character device)" {
		t.Errorf("Load: %v", err)
	}
	if _, err := LoadOptimizerState("/dev/zero"); err == nil || err.Error() != "nn: load optimiser state: /dev/zero: not a regular file (it is a character device)" {
		t.Errorf("LoadOptimizerState: %v", err)
	}
}
