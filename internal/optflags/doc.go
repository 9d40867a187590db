// Package optflags binds an options struct to a flag set, so that a stage's
// pipeline.yaml params and its command's flags are one type: each field's
// yaml tag names the param, its flag is that name with '-' for '_'
// (rzt_nt, --rzt-nt), and its help tag is the usage of both. The command
// line then only maps arguments onto the options its package exports, and
// defaults and validation are written once, on the options type.
package optflags
