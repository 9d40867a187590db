// Package mcts is the PUCT tree search shared by self-play, players and the
// life-and-death solver: a flat node arena, AlphaZero's PUCT selection with
// the growing exploration constant, value backup with virtual loss, and
// Dirichlet noise for the root. It knows nothing of proofs or zones; the
// solver (package rzs) keeps its proof state beside the tree and tells
// selection which children to skip.
package mcts
