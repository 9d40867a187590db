// Package selfplay plays AlphaZero self-play games with Faster-to-Life (FTL)
// targets and a dynamic d_w (paper 001, "Faster to Life"), and writes them
// as a training-sample dataset plus an SGF collection.
//
// A game starts from a Start: the 7x7 kill-all opening (KillAll: Black
// places two stones, White passing in between as the problem files write
// it, then White tries to make any stone unconditionally alive) or a
// life-and-death problem with its goals, region and crucial stones. Each
// move is chosen by a PUCT search (package mcts) with Dirichlet noise at the
// root and a temperature schedule (moves sampled in proportion to the
// visits for the first TempMoves moves of a game, then the most visited).
// Several games are played in lockstep so that their leaves are evaluated
// in one batch; a game may also queue several leaves per round under
// virtual loss. The living side never passes while it has a legal move (a
// pass would let the killer end the game by passing).
//
// A game ends when the living side achieves its goal (game.LivingWins: some
// stone is unconditionally alive by Benson's algorithm), fails
// (game.LivingFails), or reaches the move cap (counted as a failure of the
// living side, with the d-win targets beyond the cap unknown).
//
// Move numbers are absolute: game.Position.MoveNumber counts every move
// since the game record began (the empty board on 7x7, the setup position
// on 19x19), as the problem files' ftl_d does. The self-play win condition
// is "the living side lives by move d_w": the search values a leaf at move
// number m by the network's d-win output for d = d_w - m (the probability
// of living within that many more moves). Once a game has passed d_w
// without life, the search falls back to the plain value head, so the rest
// of the game is still played well and still yields FTL targets. After a
// generation, d_w becomes the median length of its games (NextDW), which
// keeps the d_w-win rate near one half.
//
// Targets: a position at move number m of a game the living side won by
// reaching life at move number E counts a d-win for every d >= E-m and a
// d-loss below; positions of games it lost get 0 for every d; for a game
// stopped at the move cap, d beyond the cap is masked out (FTLTargets). The
// value target is the plain result (did the living side live at all) from
// the side to move's point of view.
//
// Output (Run): samples-NNNNN.arrow files (SamplesSchema: planes, policy
// target = normalised visit counts, value, d-win targets and mask) that the
// caller lists in the dataset manifest (Result.Manifest), one games-NNNNN.json
// per file with its games, and games.sgf, the collection of every game. A
// file pair is written per chunk of games; a killed run keeps its finished
// chunks, and Run with the same options resumes after them.
package selfplay
