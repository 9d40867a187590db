// Package movecands turns game records into move-prediction data: the
// movecands datasets that the feature models (package featmodel) learn from and
// that package movepred evaluates players on.
//
// Replaying: ParseGame reads a games-dataset row's main line and checks that
// it is an even game that can be replayed from the empty board (no handicap,
// a supported board size, colours alternating from Black, every move legal);
// a game that is not gets a *SkipError with a reason that builders count,
// never silently. Record.Replay then gives, before every move, the position,
// the move history the features need and the move played.
//
// Building: Build samples games of one or more games datasets (a date range,
// at most MaxGames of them, PositionsPerGame positions each; the seed fixes
// the choice) and writes, for each sampled position, every candidate move
// (the legal moves and the pass) with its active feature ids, in the
// datasets.MoveCands schema. The feature set (package features) is stored in
// the manifest, so that validation data and trained models can be checked
// against it; LearnDiamonds adds a diamond vocabulary learned from the played
// moves of the sampled games.
//
// Reading: Open gives one or more movecands datasets with the same feature
// set as a featmodel.SampleSource, streamed from disk on every Scan, or loaded in
// memory with Load.
//
// The builder lives here rather than in package datasets so that datasets
// stays at the bottom of the dependency order (it knows schemas and files,
// not Go rules or features); datasets holds the movecands schema, writer and
// reader.
package movecands
