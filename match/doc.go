// Package match plays games between two GTP engines, each given as a
// command line: lifezero's own engine ("lifezero gtp ..."), GNU Go at a
// chosen level, or any other GTP program. Engine A (the first) plays Black
// in the first game and colours alternate, unless fixed; komi, handicap
// (fixed handicap stones placed by Black's engine and passed to White's
// with set_free_handicap) and a move cap are options.
//
// The controller is the referee: it replays every move on its own board
// (package game, simple ko as GNU Go plays) and a move that is illegal
// there, or that the other engine refuses, loses the game. A game ends
// after two passes in a row, a resignation or the move cap. It is then
// scored by GNU Go's final_score when one of the engines is GNU Go (its
// GTP name says so): a real reference that removes dead stones. Otherwise
// the controller's area score (Tromp-Taylor, see gtpengine.AreaScore).
// GNU Go scores by territory (Japanese rules) unless started with
// --chinese-rules; lifezero plays for area scoring (it fills its own
// territory at the end), so give GNU Go --chinese-rules: the match warns
// when it is missing.
//
// Before each game, engines that know set_random_seed (lifezero and GNU
// Go do) get a seed made from the match's seed and the game's number, so
// every game is reproducible and a resumed match plays the same games as
// one run straight through.
//
// Every game is written to OUT/games/game-NNNN.sgf and its result to
// OUT/games/game-NNNN.json, each atomically, so a rerun of the same match
// skips the games already finished (the match's settings are kept in
// OUT/match.json and must agree; only the number of games may change).
// Results are summarised as engine A's score with a 95% Wilson interval
// and the Elo difference that score implies, with its interval mapped
// from the Wilson bounds; OUT/results.json holds the games and the
// summary, and OUT/results/ the games as a match-results dataset (Arrow,
// one row per game, the summary in the manifest's meta).
package match
