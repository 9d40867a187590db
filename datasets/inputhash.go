package datasets

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
)

// InputHasher computes the input hash recorded in a cached dataset's
// manifest (Manifest.InputHash): what builds the dataset, its options and
// every input file read. The pipeline's stages, the records import and the
// movecands builder all hash this way.
//
// The options are hashed whole, as canonical JSON: every field that can be
// marshalled counts, so a field added later changes the hash (and so
// invalidates the cache) without anyone listing it. Fields that do not shape
// the output (worker counts, callbacks, output paths, the hash itself) are
// tagged `json:"-"`; a func field left untagged makes NewInputHasher fail,
// so a new callback cannot be forgotten silently.
type InputHasher struct{ h hash.Hash }

// inputHashFormat versions the hash layout itself.
const inputHashFormat = "lifezero-input-hash/1"

// NewInputHasher starts a hash for a builder named kind at version (bump it
// when the output changes for the same options and inputs), with params,
// the options, as canonical JSON.
func NewInputHasher(kind string, version int, params any) (*InputHasher, error) {
	canon, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("datasets: hash the options of %s: %w", kind, err)
	}
	ih := &InputHasher{h: sha256.New()}
	fmt.Fprintf(ih.h, "%s\nkind %q\nversion %d\nparams %s\n", inputHashFormat, kind, version, canon)
	return ih, nil
}

// Write adds p to the hash (for lines naming an input).
func (ih *InputHasher) Write(p []byte) (int, error) { return ih.h.Write(p) }

// File adds one input file: its name (relative to its input), size and
// hex SHA-256 (HashFile).
func (ih *InputHasher) File(name string, size int64, sha string) {
	fmt.Fprintf(ih.h, "file %q %d %s\n", name, size, sha)
}

// Sum returns the hex SHA-256 of all added so far.
func (ih *InputHasher) Sum() string { return hex.EncodeToString(ih.h.Sum(nil)) }

// SubHash derives the input hash of a part or a variant of a build from the
// build's hash h and a line saying what it is (a shard, an append).
func SubHash(h, what string) string {
	sum := sha256.Sum256([]byte(inputHashFormat + "\n" + h + "\n" + what + "\n"))
	return hex.EncodeToString(sum[:])
}
