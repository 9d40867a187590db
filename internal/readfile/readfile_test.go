package readfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "a.json")
	if err := os.WriteFile(good, []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	zeroLink := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", zeroLink); err != nil {
		t.Fatal(err)
	}
	goodLink := filepath.Join(dir, "link.json")
	if err := os.Symlink(good, goodLink); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub.json")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path    string
		limit   int64
		exts    []string
		want    string // content, or the error's text
		wantErr error
	}{
		{good, 5, []string{".json"}, "12345", nil},
		{goodLink, 5, nil, "12345", nil},
		{good, 5, []string{".yaml", ".yml"}, "want a .yaml or .yml file", nil},
		{good, 4, nil, "5 bytes, more than the 4 bytes this file may hold", ErrTooLarge},
		{"/dev/zero", 1 << 20, nil, "/dev/zero: not a regular file (it is a character device)", ErrNotRegular},
		{"/dev/zero", 1 << 20, []string{".json"}, "/dev/zero: want a .json file", nil},
		{zeroLink, MaxProblem, []string{".json"}, "zero.json: not a regular file (it is a character device)", ErrNotRegular},
		{fifo, 100, nil, "not a regular file (it is a named pipe)", ErrNotRegular},
		{sub, 100, nil, "not a regular file (it is a directory)", ErrNotRegular},
		{filepath.Join(dir, "missing.json"), 100, nil, "missing.json: no such file", fs.ErrNotExist},
	}
	for _, tc := range tests {
		data, err := Read(tc.path, tc.limit, tc.exts...)
		if err == nil {
			if string(data) != tc.want {
				t.Errorf("%s: read %q, want %q", tc.path, data, tc.want)
			}
			continue
		}
		if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.path) {
			t.Errorf("%s: error %q, want it to name the path and say %q", tc.path, err, tc.want)
		}
		if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
			t.Errorf("%s: error %v does not wrap %v", tc.path, err, tc.wantErr)
		}
	}
}

func TestLimitsText(t *testing.T) {
	for n, want := range map[int64]string{MaxProblem: "16 MiB", MaxWeights: "2 GiB", 1000: "1000 bytes"} {
		if got := bytesText(n); got != want {
			t.Errorf("bytesText(%d) = %q, want %q", n, got, want)
		}
	}
}
