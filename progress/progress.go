// Package progress defines the one interface through which long work
// reports how far it is: self-play, network training, matches, dataset
// builds and the pipeline's stages all take a Reporter, and the command line
// chooses how to show it (a bar on a terminal, log lines otherwise; package
// pipelines has both).
//
// The package has no dependencies so that any package can take a Reporter
// without linking a terminal library.
package progress

// Reporter reports progress. Start begins a phase of total steps (total <= 0:
// unknown), Add counts steps done, Finish ends the phase. Work may run several
// phases one after another; Add is safe for concurrent use.
type Reporter interface {
	Start(total int, what string)
	Add(n int)
	Finish()
}

// Nop discards progress.
type Nop struct{}

func (Nop) Start(int, string) {}
func (Nop) Add(int)           {}
func (Nop) Finish()           {}

// Or returns r, or Nop when r is nil, so that options may leave their
// Reporter unset.
func Or(r Reporter) Reporter {
	if r == nil {
		return Nop{}
	}
	return r
}

// Counter adapts a done-of-total callback, as a byte or game count reported
// by a reader, to r: the first call starts a phase called what of total
// steps, and every later call adds what was done since the previous one.
func Counter(r Reporter, what string) func(done, total int) {
	started, last := false, 0
	return func(done, total int) {
		if !started {
			r.Start(total, what)
			started = true
		}
		if done > last {
			r.Add(done - last)
			last = done
		}
	}
}
