// Package tsumego turns first-move life-and-death collections into
// knowledge for the solver. A collection such as Cho Chikun's elementary
// problems gives, per problem, a setup position, the side to play and the
// book's first move; nothing says whether that side lives or kills. Load
// reads such files, Samples turns each problem into a move-prediction
// sample (the legal moves of the problem's area, with the book's move as the
// one played), and the feature models of package featmodel learn from them the
// moves that life-and-death positions want, which the solver then uses as
// priors (rzs.Learned).
//
// Besides the Fuego-style features of package features, the samples carry
// life-and-death features computed here (LD): the size and shape of the
// empty region a move lands in and who encloses it, whether the move is that
// region's vital point, and how the liberties of the blocks next to the
// move change. The features of both kinds are colour-relative (own is the
// side to move), so one model serves the living and the killing side.
//
// ProofSamples adds the solver's own knowledge: it proves each book
// problem for either side living and labels the positions of the proofs
// where the side to move wins and may need to act with the proof's
// winning move, samples that reach past the book's first move.
// VariationSamples does the same for positions a few moves away from the
// book's (the moves drawn from the search's own priors), and
// KillAllSamples for random whole-board kill-all positions.
package tsumego
