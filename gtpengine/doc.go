// Package gtpengine is lifezero's own GTP engine: it keeps a game, answers
// the commands of the Go Text Protocol version 2 and chooses moves with a
// Player (a feature model, a network's policy, or PUCT search with the
// network), so that GUIs (GoGui, Sabaki) and match controllers can play
// against lifezero. Package gtp is the other side: a client for external
// engines.
//
// The engine answers protocol_version, name, version, known_command,
// list_commands, boardsize, clear_board, komi, play, genmove, undo,
// showboard, loadsgf, final_score and quit, plus fixed_handicap and
// set_free_handicap for handicap games, set_random_seed (as GNU Go has
// it) for reproducible matches, and time_settings and time_left, which it
// accepts and ignores (its players use no clock). Replies follow GTP 2: "=id text" or
// "?id message" and an empty line; the id of a command is echoed. A bad
// command never stops the engine: it gets a "?" reply.
//
// Moves played with "play" follow simple ko, as in GNU Go's default rules,
// so that any controller's legal move is accepted. The moves the engine
// generates also avoid positional superko, so a game against itself never
// cycles.
//
// What genmove plays: the player ranks the sensible moves, i.e. the legal
// moves that neither fill one of the mover's own eyes (an empty point
// whose neighbours are all its stones and which is not a false eye, or a
// point of a vital region, free of opponent stones, of its unconditionally
// alive blocks by Benson's algorithm) nor put the mover's own block in
// atari without capturing. The pass is never ranked: the engine passes when no sensible
// move is left, which under area scoring costs nothing, since playing on
// only fills points that are already counted. It resigns when the game is
// lost whatever happens: when the opponent's unconditionally alive area
// (stones and vital regions, by Benson's algorithm) is already more than
// the mover can outscore with the rest of the board and komi.
//
// final_score is an area score by the Tromp-Taylor rules: stones on the
// board plus the empty regions that reach only one colour, minus komi for
// White. No stone is judged dead: at the end of a game the engine has
// played on until no sensible move remained, which captures the dead
// stones it can see. A match controller that has GNU Go at hand asks GNU
// Go instead (see package match).
package gtpengine
