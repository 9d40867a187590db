// Package featmodel holds the feature models that rank the legal moves of a
// position, their training and their weights file.
//
// The models work on a generic sparse representation, independent of how
// features are extracted: a Sample is one position, a list of Candidates (one
// per legal move, each the set of its active feature ids) and the index of the
// move that was played; a SampleSource scans samples, in memory (Samples) or
// streamed from a dataset. Three models learn from the same samples:
//
//   - BTModel: the generalized Bradley-Terry model, a move is a team whose
//     strength is the product of its features' gammas, fitted by Coulom's
//     minorization-maximization (TrainBT);
//   - LFRModel: Latent Factor Ranking, a factorization machine with k latent
//     factors per feature trained by SGD on a pairwise ranking loss (TrainLFR);
//   - FBTModel: Factorization Bradley-Terry, the same factorization machine
//     read as a log-strength with a softmax over the legal moves, trained by
//     SGD or Adagrad on the log-likelihood (TrainFBT).
//
// All three implement Model and are saved to and loaded from one versioned
// weights file format (WriteModel, ReadModel, SaveModel, LoadModel).
//
// The package depends on neither the network nor its training (package
// train), so that the move-prediction tools that only score feature ids do
// not link the tensor library.
package featmodel
