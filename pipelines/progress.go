package pipelines

import (
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"lifezero/progress"
)

// Progress reports a stage's progress: the one progress interface of the
// repository, under the name the stages use.
type Progress = progress.Reporter

// BarProgress draws a progress bar (for a terminal).
type BarProgress struct {
	w      io.Writer
	prefix string
	mu     sync.Mutex
	bar    *progressbar.ProgressBar
}

// NewBarProgress returns a Progress drawing bars on w, each labelled with
// prefix (the stage name) and the phase.
func NewBarProgress(w io.Writer, prefix string) *BarProgress {
	return &BarProgress{w: w, prefix: prefix}
}

func (b *BarProgress) Start(total int, what string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.finishLocked()
	if total <= 0 {
		total = -1 // spinner
	}
	b.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(b.w),
		progressbar.OptionSetDescription(b.prefix+": "+what),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetWidth(30),
		progressbar.OptionOnCompletion(func() { io.WriteString(b.w, "\n") }),
	)
}

func (b *BarProgress) Add(n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar != nil {
		b.bar.Add(n)
	}
}

func (b *BarProgress) Finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.finishLocked()
}

func (b *BarProgress) finishLocked() {
	if b.bar != nil {
		b.bar.Finish()
		b.bar = nil
	}
}

// LogProgress reports progress as log lines: one at Start, at most one per
// Every while running, and one at Finish.
type LogProgress struct {
	Log   *slog.Logger
	Every time.Duration

	mu              sync.Mutex
	what            string
	total, done     int
	start, lastLine time.Time
}

// NewLogProgress returns a LogProgress logging to log at most every 10 s.
func NewLogProgress(log *slog.Logger) *LogProgress {
	return &LogProgress{Log: log, Every: 10 * time.Second}
}

func (l *LogProgress) Start(total int, what string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.what, l.total, l.done = what, total, 0
	l.start = time.Now()
	l.lastLine = l.start
	if total > 0 {
		l.Log.Info("progress: start", "what", what, "total", total)
	} else {
		l.Log.Info("progress: start", "what", what)
	}
}

func (l *LogProgress) Add(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.done += n
	if now := time.Now(); now.Sub(l.lastLine) >= l.Every {
		l.lastLine = now
		l.logLocked("progress")
	}
}

func (l *LogProgress) Finish() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.logLocked("progress: done")
}

func (l *LogProgress) logLocked(msg string) {
	secs := time.Since(l.start).Seconds()
	attrs := []any{"what", l.what, "done", l.done}
	if l.total > 0 {
		attrs = append(attrs, "total", l.total, "percent", int(100*float64(l.done)/float64(l.total)))
	}
	if secs > 0 {
		attrs = append(attrs, "per_second", int(float64(l.done)/secs))
	}
	l.Log.Info(msg, attrs...)
}
