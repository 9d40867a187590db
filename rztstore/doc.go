// Package rztstore persists the relevance-zone pattern table of package rzs
// (RZT) as a pattern database: a dataset of kind "rz-patterns" with one row
// per table entry, oldest first. Save writes a table's entries (rzs's
// ExportPatterns) and Load preloads into an empty table the rows of its
// problem (ImportPatterns), so that a later search starts from the patterns
// an earlier one proved. A row is only valid under the rules it was proven
// under, so each carries its problem's fingerprint and board size
// (rzs.PatternKey) and Load skips, and counts, the rows of other problems.
// The table itself, with no file format, stays in rzs, which therefore does
// not depend on Arrow.
package rztstore
