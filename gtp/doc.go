// Package gtp is a small client for the Go Text Protocol (GTP version 2):
// it starts an external engine such as GNU Go as a child process, sends it
// commands and parses its "= ..." and "? ..." replies.
//
// Commands may be sent one at a time (Command) or many in one write
// (Batch), which is what makes long reference checks against an engine
// cheap: the engine answers them in order while they are still being
// written. Every call takes a context; a call cancelled half way leaves the
// engine's reply stream out of step with its commands, so the engine is
// then killed and later calls fail with ErrClosed.
package gtp
