// Package datasets owns lifezero's on-disk datasets: a dataset is a directory
// of zstd-compressed Arrow IPC files plus a _manifest.json written last and
// atomically. The manifest records the dataset kind and schema version, the
// row count and size and SHA-256 of every file, and the hash of the producing
// stage's config and inputs (the key for caching and resume). A directory
// without a manifest is not a dataset.
//
// The package provides the manifest (ReadManifest, WriteManifest, Verify),
// generic Arrow IPC file writers and readers that never panic on corrupt input,
// and the dataset kinds themselves, starting with "games": one row per SGF game
// record, produced by ImportRecords.
package datasets
