// Package features computes move features of a Go position, modelled on the
// Fuego feature set (Coulom 2007; paper 004's appendix): for every legal
// move (and the pass) the ids of its active features, for the feature
// models (Bradley-Terry, LFR, FBT), move prediction and priors in search.
//
// An Extractor is built once from a Config (New, or Load of a saved set) and
// is then read-only; Extract fills a caller-owned Moves with, per candidate
// move, its feature ids in increasing order. Every group is exclusive: a
// move has at most one feature of each group. Colours are always relative
// to the side to move ("own" and "opponent"), so a position and its
// colour-swapped copy with the other side to move get the same features.
//
// Ids are stable. The fixed groups come first, in this order (names are
// "group:value"; `lifezero features list` prints them all):
//
//	pass          new, consecutive (the last move was a pass)
//	capture       adj_atari (next to an own block the last move put in
//	              atari), recapture (the last move's block),
//	              prevent_connection, multiple, not_ladder (the block could
//	              escape), ladder: the first that applies to a capture
//	extension     not_ladder, ladder: out of atari by extending; ladder when
//	              the opponent still captures the block in a ladder
//	atari         ladder (the block dies in a ladder), ko (a ko point is on
//	              the board), other
//	self_atari    1, 2, 3, 4-6, 7-10, 11-20, 21+ stones left with one
//	              liberty by a move that captures nothing
//	double_atari  atari (two or more blocks), defend (the opponent's
//	              double-atari point)
//	ladder        save, still, self: two-liberty ladders (Fuego's
//	              TWO_LIB_SAVE_LADDER, TWO_LIB_STILL_LADDER, TWO_LIB_SELF_LADDER)
//	save          own stones taken out of atari, same buckets as self_atari
//	kill          opponent stones captured, same buckets
//	connect       2, 3+ own blocks joined
//	cut           2, 3+ opponent blocks kept apart (the move takes a point
//	              next to all of them)
//	line          1..4, 5+ (distance to the edge, edge = 1)
//	dist_prev     2..17: distance dx+dy+max(dx,dy) to the last move
//	dist_own_prev 0, 2..17: the same to our previous move
//	cfg_last      1, 2, 3, 4+: common-fate-graph distance (blocks
//	              contracted) to the last move's block
//	cfg_own       0, 1, 2, 3, 4+: the same to our previous move
//	closest_own   2..19, 20+: distance dx+dy+max(dx,dy) to the closest own
//	              stone (none on an empty board)
//	closest_opp   the same for opponent stones
//	phase         0-49, 50-99, ..., 500-549, 550+: moves played
//
// Then the 3x3 patterns, one id per pattern canonical under the eight
// symmetries ("pat3x3:<canonical code in hex>", dense ids assigned by
// increasing canonical code when the Extractor is built; with
// Config.Pattern3Liberties the orthogonal neighbours carry their block's
// liberty bucket 1, 2, 3+), then the diamonds: the 12 points within
// Manhattan distance 2, canonical under the symmetries, kept only when
// frequent in training data (LearnDiamonds), in vocabulary order
// ("diamond:<canonical code in hex>"), and last the large shape patterns of
// Stern et al. and Coulom: for sizes 5 to 14, all points at distance
// dx+dy+max(dx,dy) <= size, learned the same way (LearnShapes), of which a
// move gets the largest it matches ("shape:<size>:<hash in hex>"). The pass
// gets only pass and phase.
//
// Tactical features read ladders for real: the attacker keeps ataring, the
// defender extends or captures an attacker block in atari, until the
// defender has three liberties or is captured; stones on the board such as
// ladder breakers take part. A read that exceeds its node or depth budget
// counts as an escape.
//
// A feature set is saved as JSON (Save, Load; format in file.go): the
// configuration and the diamond and shape vocabularies with counts.
package features
