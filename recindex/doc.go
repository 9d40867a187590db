// Package recindex indexes game records for local pattern queries, after
// paper 003 (a suffix-tree index of game records with 3-bit point states).
//
// A pattern is a rectangle of points, each with the set of states it
// allows (empty, black, white: paper 003's three bits, so "?" allows all
// three). It matches under the 8 symmetries and the colour swap, anywhere
// on the board or at a fixed place. A hit is an appearance: a game, a move
// and a placement such that the position after the move matches and the
// one before it does not. The move that makes a pattern appear either
// placed one of its stones or captured a stone on one of its empty
// points, so the index holds those events, about one per move.
//
// Each event is stored once per quadrant around its point, keyed by the
// 5x5 block in that quadrant (2 bits a point, nearest first) and sorted. A
// query anchors each form of the pattern at each point that can appear,
// looks into the quadrant that covers most of the pattern, and finds the
// keys that agree with the pattern by a skip scan of the sorted keys (a
// suffix-array search with don't-care branches, which the sort order
// visits in key order). Every candidate is then verified exactly against
// the game's per-point timelines (the moves at which each point changed),
// which the index also stores, so answers are exact. The continuation of a
// hit is the first later move inside the matched rectangle.
//
// The index is one file, index.bin, with a versioned header, a section
// table and a CRC-32C, mapped read-only at query time, and index.json,
// written last, describing it. Build writes both atomically; Open checks
// them and names the file at fault when one is truncated or corrupt.
package recindex
