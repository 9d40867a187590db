// Package neteval lets the life-and-death solver (package rzs) search with
// a trained network: it adapts an nn.Evaluator to rzs.Evaluator.
//
// The input is nn.Config.Encode of the position and the problem's view
// there (game.Problem.StandingView, the crucial stones still standing),
// exactly as self-play encodes its positions for training.
//
// Priors are the network's policy restricted to the solver's candidate
// moves and renormalised. The value, the probability that the living side
// wins, comes in two modes:
//
//   - FTL (the default): the d-win output at the problem's d, so that the
//     search prefers the fastest lives (paper 001, "Faster to Life"). The
//     problem files' ftl_d counts moves from the start of the game record
//     (the empty board on 7x7, the setup position on 19x19), while the
//     network's output d-1 means "lives within d moves from this
//     position"; so a position at move number m is queried at
//     d = ftl_d - m, clamped to 1..D. On 19x19, where the record starts at
//     the problem's setup, this is ftl_d minus the search depth, as the
//     reference solver does; on 7x7 it matches the reference's absolute
//     move-number d index. A problem without ftl_d uses the value head.
//   - Value: the plain value head converted to the living side's view, for
//     the FTL ablation (a network searched without its d-win heads).
//
// It lives in its own package so that rzs does not depend on nn (and,
// through it, on gorgonia).
package neteval
