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
		if u, seeds := pos.BensonIfAlive(standing, living); !seeds.Empty() {
			return Judgement{Outcome: LivingWins, Zone: u.SmallestZone(&pos.Board, &seeds)}
		}
	case GoalLiveAny:
		u := pos.Benson(living)
		if !u.Alive.Empty() {
			return Judgement{Outcome: LivingWins, Zone: u.SmallestZone(&pos.Board, &u.Alive)}
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

// StandingView sets view to the problem as it stands at a position: pr
// with Crucial replaced by the crucial stones still standing there (see
// Standing), everything else as in pr. It is the one view of a problem
// that move-ordering evaluators and the network's input encoder
// (nn.Config.Encode) are given, in solving and in self-play alike, so that
// a position looks the same to the network in both: a crucial point whose
// stone was captured is no longer crucial, even if a living stone is
// played there again. view is the caller's scratch (a plain copy: no
// allocation); it must not be pr.
func (pr *Problem) StandingView(view *Problem, standing *PointSet) {
	*view = *pr
	view.Crucial = *standing
}

// SmallestZone returns the smallest self-sufficient part of the UCA area
// that holds a stone of seeds: starting from one alive block holding a seed,
// it adds every vital region next to a block it holds and every alive block
// next to a region it holds, until nothing more joins. Each block so reached
// keeps all its vital regions and each region all its surrounding blocks, so
// the part is unconditionally alive on its own (Benson's condition holds
// within it), and so it is a relevance zone of the win. On 19x19 problems
// this leaves out the unconditionally alive walls that enclose the problem.
func (u *UCA) SmallestZone(b *Board, seeds *PointSet) PointSet {
	var best PointSet
	bestLen := -1
	var done PointSet
	seeds.ForEach(func(p Point) {
		if done.Has(p) || !u.Alive.Has(p) {
			return
		}
		z := u.closure(b, p)
		done = done.Union(z)
		if n := z.Len(); bestLen < 0 || n < bestLen {
			best, bestLen = z, n
		}
	})
	return best
}

// closure grows the self-sufficient part of the UCA area around the alive
// block at p.
func (u *UCA) closure(b *Board, p Point) PointSet {
	var z PointSet
	var stack [MaxCells]Point // each point is pushed once
	stack[0] = p
	z.Add(p)
	for top := 1; top > 0; {
		top--
		q := stack[top]
		for _, n := range b.Neighbors(q) {
			if z.Has(n) {
				continue
			}
			// A block reaches its vital regions and a region its blocks
			// through adjacency; two different regions are never adjacent.
			if !u.Alive.Has(n) && !u.Vital.Has(n) {
				continue
			}
			z.Add(n)
			stack[top] = n
			top++
		}
	}
	return z
}
