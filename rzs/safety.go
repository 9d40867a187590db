package rzs

import "lifezero/game"

// This file recognises life under alternating play: a living group whose
// small enclosed regions give it Benson's life whatever the killer does,
// provided the living side answers, though Benson's algorithm (which
// lets the living side pass for ever) does not see it yet. It is the
// solver's safety solver in the spirit of Müller's "Playing it safe"
// (1997), done by a small exhaustive search instead of static rules, so
// that every case it accepts is a proof by the game's own judge.
//
// The local game. Take blocks S of the living side and regions R (maximal
// connected sets of points not of the living colour, as in Benson's
// algorithm) such that every region of R is small and touches only
// blocks of S, and every block of S touches a region of R. The zone Z is
// S's stones, R's points and the connection points: empty points outside R
// next to two blocks of S and to no other living stone. The killer moves
// first; its moves are the empty points of Z or a pass, which stands for
// any move outside Z: the regions of R are enclosed by S, so a move outside
// Z changes nothing in Z. The living side answers each with a move in Z
// that captures nothing, or with one that ends the game at once by
// capturing killer stones that lie wholly inside Z (it never passes: two
// passes end the game as its failure). The living
// side wins the local game when the judge's condition holds with a zone
// inside Z: a block of S holding a standing crucial stone (live) or any
// block of S (live_any) is unconditionally alive, and SmallestZone ⊆ Z.
//
// Why a local win is a win in every position that agrees with this one on
// Z, whatever lies outside:
//
//   - Liberties outside Z are taken to be filled already (the killer may
//     fill them while the local game stands still). A block of S with no
//     liberty left in Z counts as captured, so a killer move that takes a
//     block's last liberty in Z loses the local game for the living side
//     at once, and the living side never plays a move that leaves its own
//     block without one. A real capture of the living side's stones needs
//     a block with no liberty at all, so it never happens in a won line.
//   - No capture happens in a won line before its last move (the living
//     side captures only to end the game, the killer cannot capture), so
//     stones are only added: the line never repeats its own positions, no
//     ko arises, and the living side's no-ko-capture rule is kept (its
//     last, capturing move touches its own stone or an empty point, so it
//     is no ko capture). (A repetition of a position from before the node would
//     need the zone's stones taken and put back; like the transposition
//     table, the solver takes a result found on this path as the
//     position's.)
//   - A killer's stone on a connection point may belong to a block that
//     reaches outside Z, whose liberties differ from one such position to
//     another. Where that move is illegal here the search gives up (another
//     position may allow it), and the living side answers next to such a
//     stone only with a move that ends the game, with a zone that leaves
//     the stone out (another position may make that answer a capture, and
//     then the capture changes nothing the win rests on).
//   - The killer's moves are all its moves in Z, even those its ko rule or
//     Region forbids, so the search is pessimistic for the living side;
//     the living side's moves are legal ones inside the problem's region.
//   - The end judged is the judge's own (Benson's algorithm) with a zone
//     inside Z, and Benson's life inside a self-sufficient zone holds
//     whatever lies outside it (UCA.SmallestZone).
//
// The killer moving first covers the living side to move too: that
// position is the killer's pass of the local game. So a win holds for
// either side to move, like a Benson win, and its zone Z goes to the
// tables as one.

// judge is the problem's judge, with safeLife when safety is on: the one
// judgement every form of the search makes of a position.
func judge(pr *game.Problem, pos *game.Position, standing *game.PointSet, safety bool) game.Judgement {
	j := pr.Judge(pos, standing)
	if safety && j.Outcome == game.Undecided {
		if z, ok := safeLife(pr, pos, standing); ok {
			return game.Judgement{Outcome: game.LivingWins, Zone: z}
		}
	}
	return j
}

// Bounds of the local search. Its tree grows like the factorial of the
// empty points, so they are kept small; a case past them is left to the
// main search (never judged lost).
const (
	safetyMaxRegion  = 8   // points of one region taken into Z
	safetyMaxEmpties = 7   // empty points of all of Z's regions together
	safetyBudget     = 600 // boards the local search may play per call
)

// safetyCheck is the working state of one recognition. It is a plain value
// made per call, so concurrent searches share nothing.
type safetyCheck struct {
	pr       *game.Problem
	living   game.Color
	killer   game.Color
	standing *game.PointSet
	zone     game.PointSet // Z
	open     game.PointSet // Z's connection points (see safetyRegions.connections)
	moves    []game.Point  // the empty points of Z's regions
	buf      [safetyMaxEmpties]game.Point
	budget   int
	// memo holds the local game's results by the stones' hash and the side
	// to move: its lines transpose a great deal. A result cut short by the
	// budget is not kept.
	memo [safetyMemo]safetyEntry
}

// safetyMemo is the size of the local search's memo (a power of two).
const safetyMemo = 256

type safetyEntry struct {
	key uint64
	win bool
	set bool
}

// safeLife reports whether the living side lives under alternating play in
// pos (see above), with the zone of that win. standing holds the crucial
// stones still standing. It is called only where the judge is undecided.
func safeLife(pr *game.Problem, pos *game.Position, standing *game.PointSet) (game.PointSet, bool) {
	var rs safetyRegions
	rs.find(&pos.Board, pr.Living())
	c := safetyCheck{pr: pr, living: pr.Living(), killer: pr.Living().Opponent(), standing: standing}
	live := pr.Goal[c.living] == game.GoalLive
	// First the groups that small regions join, then, where that fails,
	// the larger groups that single empty points join as well.
	for _, links := range []bool{false, true} {
		var tried game.PointSet
		for i := 0; i < pos.Cells(); i++ {
			p := game.Point(i)
			if pos.At(p) != c.living || tried.Has(p) || (live && !standing.Has(p)) {
				continue
			}
			z, regions, ok := rs.closure(&pos.Board, p, links)
			tried = tried.Union(z)
			if !ok || !worthSearching(regions) {
				continue
			}
			open := rs.connections(&pos.Board, &z)
			if links && open.Empty() {
				continue // the same zone as without links, searched already
			}
			if full := z.Union(open); c.search(&pos.Board, full, open) {
				return full, true
			}
		}
	}
	return game.PointSet{}, false
}

// worthSearching reports whether regions (the sizes of Z's regions) could
// give two eyes against a killer moving first: two regions, or one large
// enough to be split.
func worthSearching(sizes []int) bool {
	return len(sizes) >= 2 || (len(sizes) == 1 && sizes[0] >= 4)
}

// search runs the local game on zone z from b.
func (c *safetyCheck) search(b *game.Board, z, open game.PointSet) bool {
	c.zone, c.open = z, open
	c.memo = [safetyMemo]safetyEntry{}
	c.moves = c.buf[:0]
	empties := 0
	for i := 0; i < b.Cells(); i++ {
		p := game.Point(i)
		if z.Has(p) && b.At(p) == game.Empty {
			empties++
			if empties > safetyMaxEmpties {
				return false
			}
			c.moves = append(c.moves, p)
		}
	}
	// Every block of S needs a liberty in Z to begin with, else the killer
	// may take it from outside.
	for i := 0; i < b.Cells(); i++ {
		p := game.Point(i)
		if z.Has(p) && b.At(p) == c.living && b.BlockHead(p) == p && c.libsInZone(b, p) == 0 {
			return false
		}
	}
	c.budget = safetyBudget
	local := *b
	local.Play(c.killer, game.Pass) // clears the simple-ko point: the killer may play anywhere
	return c.turn(&local, 2*empties+2, true)
}

// turn reports whether the living side wins the local game in b, the
// killer or the living side to move, within depth plies: the memo's
// answer, or killerSearch's or livingSearch's.
func (c *safetyCheck) turn(b *game.Board, depth int, killerToMove bool) bool {
	key := memoKey(b, killerToMove)
	if e := &c.memo[key&(safetyMemo-1)]; e.set && e.key == key {
		return e.win
	}
	search := c.livingSearch
	if killerToMove {
		search = c.killerSearch
	}
	win := search(b, depth)
	if win || c.budget > 0 { // a loss cut short by the budget is not kept
		c.memo[key&(safetyMemo-1)] = safetyEntry{key: key, win: win, set: true}
	}
	return win
}

// memoKey is the memo's key of b: its stones' hash, complemented when the
// killer is to move.
func memoKey(b *game.Board, killerToMove bool) uint64 {
	if killerToMove {
		return ^b.StoneHash()
	}
	return b.StoneHash()
}

// killerSearch reports whether the living side wins the local game with
// the killer to move in b, within depth plies.
func (c *safetyCheck) killerSearch(b *game.Board, depth int) bool {
	if c.alive(b) {
		return true
	}
	if depth == 0 || c.budget <= 0 {
		return false
	}
	for _, m := range c.moves {
		if b.At(m) != game.Empty {
			continue
		}
		if c.takesBlock(b, m) {
			return false
		}
		if !b.Legal(c.killer, m) {
			if c.open.Has(m) {
				// A connection point's killer block reaches outside Z,
				// where another position may give it the liberty this
				// one lacks: the move cannot be left out.
				return false
			}
			continue // suicide: the killer's block in R has no liberty
		}
		next := *b
		next.Play(c.killer, m)
		c.budget--
		if !c.turn(&next, depth-1, false) {
			return false
		}
	}
	next := *b
	next.Play(c.killer, game.Pass)
	c.budget--
	return c.turn(&next, depth-1, false)
}

// livingSearch reports whether the living side, to move in b, wins the
// local game within depth plies.
func (c *safetyCheck) livingSearch(b *game.Board, depth int) bool {
	if c.alive(b) {
		return true // a killer's stone may fill the one empty point that was no liberty
	}
	if depth == 0 || c.budget <= 0 {
		return false
	}
	for _, m := range c.moves {
		if b.At(m) != game.Empty || !c.pr.Region.Has(m) || !b.Legal(c.living, m) {
			continue
		}
		captures := b.CaptureCount(c.living, m) > 0
		if captures && !c.capturesInside(b, m) {
			continue
		}
		next := *b
		next.Play(c.living, m)
		c.budget--
		if c.libsInZone(&next, m) == 0 {
			continue
		}
		// A capture, or a move next to a killer's block that reaches
		// outside Z, is played only where it ends the game at once.
		if touched := c.openKillerNext(b, m); captures || !touched.Empty() {
			if z, ok := c.aliveZone(&next); ok && !z.Intersects(&touched) {
				return true
			}
			continue
		}
		if c.turn(&next, depth-1, true) {
			return true
		}
		if c.budget <= 0 {
			return false
		}
	}
	return false
}

// openKillerNext returns the killer's blocks next to m that reach outside
// Z (a stone of theirs has a neighbour outside it): such a block lies on
// connection points, and another position that agrees on Z may leave it
// fewer liberties, so that a living move next to it captures there.
func (c *safetyCheck) openKillerNext(b *game.Board, m game.Point) game.PointSet {
	var out game.PointSet
	for _, q := range b.Neighbors(m) {
		if b.At(q) == c.killer && !out.Has(q) && c.reachesOutside(b, q) {
			out = out.Union(b.BlockSet(q))
		}
	}
	return out
}

// capturesInside reports whether every killer's block that a living stone
// at m would capture lies inside Z with all its neighbours, so that the
// capture is the same in every position that agrees on Z, and whether the
// capture is no ko capture (which the living side's rule forbids): m
// touches a living stone or an empty point.
func (c *safetyCheck) capturesInside(b *game.Board, m game.Point) bool {
	noKo := false
	for _, q := range b.Neighbors(m) {
		switch b.At(q) {
		case c.living, game.Empty:
			noKo = true
		case c.killer:
			if b.LibertyCount(q) == 1 && c.reachesOutside(b, q) {
				return false
			}
		}
	}
	return noKo
}

// reachesOutside reports whether a stone of the block at p has a
// neighbour on the board outside Z.
func (c *safetyCheck) reachesOutside(b *game.Board, p game.Point) bool {
	outside := false
	b.BlockStones(p, func(q game.Point) {
		for _, n := range b.Neighbors(q) {
			if b.OnBoard(n) && !c.zone.Has(n) {
				outside = true
			}
		}
	})
	return outside
}

// takesBlock reports whether a killer stone at m leaves a living block
// next to it without a liberty in Z.
func (c *safetyCheck) takesBlock(b *game.Board, m game.Point) bool {
	for _, q := range b.Neighbors(m) {
		if b.At(q) != c.living {
			continue
		}
		libs := b.Liberties(q).Intersect(c.zone)
		libs.Remove(m)
		if libs.Empty() {
			return true
		}
	}
	return false
}

// libsInZone counts the liberties in Z of the block at p.
func (c *safetyCheck) libsInZone(b *game.Board, p game.Point) int {
	libs := b.Liberties(p).Intersect(c.zone)
	return libs.Len()
}

// alive reports whether the judge's condition holds in b with a zone
// inside Z.
func (c *safetyCheck) alive(b *game.Board) bool {
	_, ok := c.aliveZone(b)
	return ok
}

// aliveZone returns the zone of the judge's win in b when it lies inside Z.
func (c *safetyCheck) aliveZone(b *game.Board) (game.PointSet, bool) {
	candidates := c.zone
	if c.pr.Goal[c.living] == game.GoalLive {
		candidates = candidates.Intersect(*c.standing)
	}
	u, seeds := b.BensonIfAlive(&candidates, c.living)
	if seeds.Empty() {
		return game.PointSet{}, false
	}
	z := u.SmallestZone(b, &seeds)
	return z, z.SubsetOf(&c.zone)
}
