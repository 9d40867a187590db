package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
)

// version is the release of lifezero; builds from a checkout add the commit.
const version = "0.1.0-dev"

func cmdVersion(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", "version", stderr)
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	fmt.Fprintln(stdout, versionString())
	return nil
}

func versionString() string {
	s := "lifezero " + version
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return s
	}
	settings := map[string]string{}
	for _, kv := range info.Settings {
		settings[kv.Key] = kv.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		s += " (" + rev
		if settings["vcs.modified"] == "true" {
			s += ", modified"
		}
		s += ")"
	}
	return s + " " + info.GoVersion
}
