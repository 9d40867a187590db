package main

import (
	"io"
	"log/slog"

	"lifezero/pipelines"
)

// newLogger returns the text logger on stderr that every command uses.
func newLogger(stderr io.Writer, verbose bool) *slog.Logger {
	level := slog.LevelInfo
	if verbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
}

// progressFactory draws progress bars on a terminal and logs otherwise.
func progressFactory(stderr io.Writer) func(stage string, log *slog.Logger) pipelines.Progress {
	if isTerminal(stderr) {
		return func(stage string, _ *slog.Logger) pipelines.Progress { return pipelines.NewBarProgress(stderr, stage) }
	}
	return func(_ string, log *slog.Logger) pipelines.Progress { return pipelines.NewLogProgress(log) }
}
