// Package movepred measures how well a player predicts the moves of game
// records: any Ranker that scores the legal moves of a position (a feature
// model, a network policy, a search) is evaluated on samples of played moves.
//
// It reports what paper 004 (feature knowledge in MCTS Go) uses to compare
// players: top-1 and top-k prediction rates, the mean log-likelihood of the
// played move, the prediction rate per game phase (buckets of 50 moves,
// its Figs 4.2 and 4.3), and feature frequencies (its Sec. 4.4): for every
// feature, how often it is active in all legal moves, in the played moves and
// in the player's top-1 moves.
//
// Ties are never broken by candidate order: a played move tied with t-1 other
// moves earns the expected credit of a uniformly random tie-break, so results
// do not depend on how the data orders the legal moves.
package movepred
