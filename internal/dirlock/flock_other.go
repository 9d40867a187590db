//go:build !unix

package dirlock

import "os"

// lockFile does not lock where there is no flock: the directory is not
// protected there, but lifezero still builds and runs.
func lockFile(f *os.File) error { return nil }

func unlockFile(f *os.File) error { return nil }
