// Package mcts is the PUCT tree search shared by self-play, players and the
// life-and-death solver: a flat node arena, AlphaZero's PUCT selection with
// the growing exploration constant, value backup with virtual loss, and
// Dirichlet noise for the root. Search is the one descent loop: it walks a
// SearchTree by PUCT, judges the nodes it reaches through hooks, hands its
// leaves out under virtual loss so that many of them (from many searches)
// go to an Evaluator in one batch, and backs the results up. It knows
// nothing of networks, proofs or zones; a solver keeps its proof state
// beside the tree, whose SelectChild passes over the children proven or
// pruned.
package mcts
