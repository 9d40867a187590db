package features

import "fmt"

// Fixed feature ids. They never change between versions of the package: a
// new feature is appended after the last fixed group, and the pattern ids
// (3x3, then diamonds) follow the fixed ones. Each block of consecutive ids
// is one group; see fixedGroups for the names and doc.go for the meaning.
const (
	idPassNew int32 = iota
	idPassConsecutive

	idCaptureAdjAtari
	idCaptureRecapture
	idCapturePreventConnection
	idCaptureMultiple
	idCaptureNotLadder
	idCaptureLadder

	idExtensionNotLadder
	idExtensionLadder

	idAtariLadder
	idAtariKo
	idAtariOther

	idSelfAtari // + stoneBucket: 7 ids
)

const (
	idDoubleAtari       = idSelfAtari + numStoneBuckets
	idDoubleAtariDefend = idDoubleAtari + 1
	idLadderSave        = idDoubleAtariDefend + 1
	idLadderStill       = idLadderSave + 1
	idLadderSelf        = idLadderStill + 1
	idSave              = idLadderSelf + 1              // + stoneBucket: 7 ids
	idKill              = idSave + numStoneBuckets      // + stoneBucket: 7 ids
	idConnect2          = idKill + numStoneBuckets      // connect 2, 3+
	idCut2              = idConnect2 + 2                // cut 2, 3+
	idLine              = idCut2 + 2                    // line 1..5+: 5 ids
	idDistPrev          = idLine + 5                    // 2..17: 16 ids
	idDistOwn           = idDistPrev + 16               // 0, 2..17: 17 ids
	idCFGLast           = idDistOwn + 17                // 1, 2, 3, 4+: 4 ids
	idCFGOwn            = idCFGLast + 4                 // 0, 1, 2, 3, 4+: 5 ids
	idClosestOwn        = idCFGOwn + 5                  // 2..19, 20+: 19 ids
	idClosestOpp        = idClosestOwn + closestBuckets // 2..19, 20+: 19 ids
	idPhase             = idClosestOpp + closestBuckets // 12 ids
	numFixed            = idPhase + numPhases           // first pattern id
)

const (
	maxDistFeat = 17 // largest dist_prev / dist_own_prev value
	phaseLength = 50 // moves per game-phase bin
	numPhases   = 12 // the last bin is open-ended
)

const (
	numStoneBuckets = 7
	closestBuckets  = 19
)

// stoneBucket maps a stone count (>= 1) to the buckets 1, 2, 3, 4-6, 7-10,
// 11-20, 21+ of Fuego's save/kill features.
func stoneBucket(n int) int32 {
	switch {
	case n <= 3:
		return int32(n - 1)
	case n <= 6:
		return 3
	case n <= 10:
		return 4
	case n <= 20:
		return 5
	}
	return 6
}

// stoneBucketNames names the buckets of stoneBucket.
func stoneBucketNames() []string {
	return []string{"1", "2", "3", "4-6", "7-10", "11-20", "21+"}
}

// Group is a block of consecutive feature ids that describe one aspect of a
// move. In an exclusive group a move has at most one active feature, which
// is what Bradley-Terry team models with feature groups need. Every group of
// this package is exclusive.
type Group struct {
	Name      string
	First     int32 // first id of the group
	Count     int32 // number of ids
	Exclusive bool
	Doc       string
}

// groupSpec describes a fixed group: the values become names "group:value".
type groupSpec struct {
	name   string
	first  int32
	values []string
	doc    string
}

// fixedGroups returns the fixed groups in id order. It is a function, not a
// package variable, so that nothing at package level can be mutated.
func fixedGroups() []groupSpec {
	dist := func(from int) []string {
		var v []string
		for d := from; d <= maxDistFeat; d++ {
			v = append(v, fmt.Sprint(d))
		}
		return v
	}
	closest := func() []string {
		var v []string
		for d := 2; d < 2+closestBuckets-1; d++ {
			v = append(v, fmt.Sprint(d))
		}
		return append(v, fmt.Sprintf("%d+", 2+closestBuckets-1))
	}
	var phases []string
	for i := 0; i < numPhases-1; i++ {
		phases = append(phases, fmt.Sprintf("%d-%d", i*phaseLength, (i+1)*phaseLength-1))
	}
	phases = append(phases, fmt.Sprintf("%d+", (numPhases-1)*phaseLength))
	return []groupSpec{
		{"pass", idPassNew, []string{"new", "consecutive"},
			"the pass move; consecutive when the last move was a pass"},
		{"capture", idCaptureAdjAtari, []string{"adj_atari", "recapture", "prevent_connection", "multiple", "not_ladder", "ladder"},
			"the move captures; first that applies: a block next to an own block the last move put in atari, the block of the last move, a block whose capture stops the last move's block from connecting through this point, two or more blocks, a block that could escape, a block already dead in a ladder"},
		{"extension", idExtensionNotLadder, []string{"not_ladder", "ladder"},
			"the move extends an own block out of atari without capturing; ladder when the opponent still captures it in a ladder"},
		{"atari", idAtariLadder, []string{"ladder", "ko", "other"},
			"the move puts an opponent block in atari: captured in a ladder, else while a ko point is on the board, else other"},
		{"self_atari", idSelfAtari, stoneBucketNames(),
			"the move captures nothing and leaves its own block (of this many stones) with one liberty"},
		{"double_atari", idDoubleAtari, []string{"atari", "defend"},
			"the move puts two or more opponent blocks in atari; defend: it takes the point where the opponent would atari two own blocks"},
		{"ladder", idLadderSave, []string{"save", "still", "self"},
			"two-liberty ladders: the move saves an own two-liberty block that the opponent could ladder, plays on its liberty but it can still be laddered, or (not extending from atari) leaves its own block with two liberties that can be laddered"},
		{"save", idSave, stoneBucketNames(),
			"own stones in atari that the move gives a second liberty (by extending or capturing)"},
		{"kill", idKill, stoneBucketNames(),
			"opponent stones the move captures"},
		{"connect", idConnect2, []string{"2", "3+"},
			"the move joins this many own blocks"},
		{"cut", idCut2, []string{"2", "3+"},
			"the move takes a point where this many opponent blocks would join"},
		{"line", idLine, []string{"1", "2", "3", "4", "5+"},
			"distance to the nearest edge, the edge line being 1"},
		{"dist_prev", idDistPrev, dist(2),
			"distance dx+dy+max(dx,dy) to the last move (opponent's)"},
		{"dist_own_prev", idDistOwn, append([]string{"0"}, dist(2)...),
			"distance dx+dy+max(dx,dy) to our previous move; 0 when it was captured and the move replays it"},
		{"cfg_last", idCFGLast, []string{"1", "2", "3", "4+"},
			"common-fate-graph distance (blocks contracted) to the block of the last move"},
		{"cfg_own", idCFGOwn, []string{"0", "1", "2", "3", "4+"},
			"common-fate-graph distance to the block of our previous move (0: its point, after a capture)"},
		{"closest_own", idClosestOwn, closest(),
			"distance dx+dy+max(dx,dy) to the closest own stone"},
		{"closest_opp", idClosestOpp, closest(),
			"distance dx+dy+max(dx,dy) to the closest opponent stone"},
		{"phase", idPhase, phases,
			"game phase: the number of moves played, in bins of 50"},
	}
}
