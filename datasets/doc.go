// Package datasets owns lifezero's on-disk datasets. A dataset is a
// directory of zstd-compressed Arrow IPC files (part-00000.arrow, ...) plus
// a _manifest.json written last and atomically; a directory without a
// manifest is not a dataset. The manifest records the dataset kind and
// schema version, the rows, size and SHA-256 of every file, and the hash of
// the producing stage's config and inputs (the key for caching and resume).
//
// Writing: NewWriter prepares a directory (removing an old manifest first,
// so a half-rewritten dataset never looks complete), Write splits record
// batches into files of at most MaxRowsPerFile rows, each written under a
// temporary name and renamed, and Commit writes the manifest.
//
// Reading: Open verifies the manifest, sizes and checksums, then Next
// iterates the record batches file by file. A file is parsed only from the
// very bytes whose checksum was just checked, Arrow library panics become
// errors naming the file, and every record's buffers are checked before it
// is returned: corrupt input gives an error, never a crash.
//
// Schemas: the Arrow schema of every dataset of the repository is declared
// here, one function a dataset (schemas.go: GamesSchema, MoveCandsSchema,
// SelfplaySamplesSchema, NetworkLossesSchema, RZPatternsSchema,
// SolveResultsSchema, ProblemsSchema, MovePredResultsSchema,
// MatchResultsSchema); the packages that write them keep the kinds and
// schema versions.
//
// Kinds: "games" (GamesSchema, Game, ForEachGame, ReadGames, WriteGames)
// holds one row per SGF game record; ImportRecords builds it from SGF
// collections, with date filters, a game limit, and malformed games either
// failing the import or skipped and counted. An interrupted import leaves no
// manifest and a rerun starts over.
package datasets
