package game

import "fmt"

// Goal is what one side of a life-and-death problem tries to achieve.
type Goal uint8

// Goals, as the problem files name them.
const (
	GoalNone    Goal = iota
	GoalLive         // make a crucial stone unconditionally alive
	GoalKill         // stop that
	GoalLiveAny      // make any stone of the colour unconditionally alive (kill-all)
	GoalKillAll      // stop that
)

var goalNames = [...]string{"none", "live", "kill", "live_any", "kill_all"}

// String returns the file's name of the goal.
func (g Goal) String() string {
	if int(g) < len(goalNames) {
		return goalNames[g]
	}
	return fmt.Sprintf("Goal(%d)", g)
}

// ParseGoal reads a goal name of the problem files.
func ParseGoal(s string) (Goal, error) {
	for i, n := range goalNames {
		if i > 0 && n == s {
			return Goal(i), nil
		}
	}
	return GoalNone, fmt.Errorf("unknown goal %q (want live, kill, live_any or kill_all)", s)
}

// Living reports whether the goal is one of making stones live.
func (g Goal) Living() bool { return g == GoalLive || g == GoalLiveAny }

// Outcome is the state of a life-and-death problem in a position, from the
// living side's point of view.
type Outcome uint8

// Outcomes.
const (
	Undecided Outcome = iota
	LivingWins
	LivingFails
)

// String names the outcome.
func (o Outcome) String() string {
	switch o {
	case LivingWins:
		return "win"
	case LivingFails:
		return "fail"
	}
	return "undecided"
}

// Judgement is an outcome with the relevance zone that decides it: for a
// win, the living side's unconditionally alive blocks and their vital
// regions; for a fail by the killing side's unconditional life, the killing
// side's area.
type Judgement struct {
	Outcome Outcome
	Zone    PointSet
}

// Judge decides the problem in position pos. standing holds the crucial
// stones not yet captured (see Standing); it is ignored for live_any.
//
// The living side wins when Benson's algorithm finds an unconditionally
// alive block that holds a standing crucial stone (live) or any stone of
// its colour (live_any). It fails when all crucial stones are captured
// (live), when the killing side's unconditionally alive area covers every
// point of the allowed region so no living stone can ever be made (live_any),
// or after two consecutive passes without a win.
func (pr *Problem) Judge(pos *Position, standing *PointSet) Judgement {
	living := pr.Living()
	switch pr.Goal[living] {
	case GoalLive:
		if standing.Empty() {
			return Judgement{Outcome: LivingFails}
		}
		u := pos.Benson(living)
		if standing.Intersects(&u.Alive) {
			return Judgement{Outcome: LivingWins, Zone: u.Area()}
		}
	case GoalLiveAny:
		u := pos.Benson(living)
		if !u.Alive.Empty() {
			return Judgement{Outcome: LivingWins, Zone: u.Area()}
		}
		k := pos.Benson(living.Opponent())
		area := k.Area()
		if pr.Region.SubsetOf(&area) {
			return Judgement{Outcome: LivingFails, Zone: area}
		}
	}
	if pos.Passes() >= 2 {
		return Judgement{Outcome: LivingFails}
	}
	return Judgement{Outcome: Undecided}
}

// Standing returns the crucial stones of before that still stand in pos:
// a crucial point that was emptied by a capture stays lost even if a stone
// of the living side is later played there.
func (pr *Problem) Standing(pos *Position, before *PointSet) PointSet {
	living := pr.Living()
	var out PointSet
	before.ForEach(func(p Point) {
		if pos.At(p) == living {
			out.Add(p)
		}
	})
	return out
}
