package features

import "lifezero/game"

// neighbourhood is what tactical features need to know about the blocks
// around a move.
type neighbourhood struct {
	own, opp   [4]*blockInfo // distinct adjacent blocks
	nOwn, nOpp int
	captured   [4]*blockInfo
	nCaptured  int
	killed     int // stones captured
	libsAfter  game.PointSet
	nLibsAfter int
	sizeAfter  int // stones of the move's block after the move
	ownAtari   int // adjacent own blocks in atari
	ownTwoLib  int // adjacent own blocks with two liberties
	oppTwoLib  int // adjacent opponent blocks with two liberties
}

// look fills nb for move p of the side to move.
func (a *analysis) look(p game.Point, nb *neighbourhood) {
	*nb = neighbourhood{sizeAfter: 1}
	pos := a.pos
	for _, q := range pos.Neighbors(p) {
		switch pos.At(q) {
		case game.Empty:
			nb.libsAfter.Add(q)
		case a.me:
			bi := a.block(q)
			if containsBlock(nb.own[:nb.nOwn], bi) {
				continue
			}
			nb.own[nb.nOwn] = bi
			nb.nOwn++
			nb.libsAfter = nb.libsAfter.Union(bi.libs)
			nb.sizeAfter += bi.size
			switch bi.nlibs {
			case 1:
				nb.ownAtari++
			case 2:
				nb.ownTwoLib++
			}
		case a.opp:
			bi := a.block(q)
			if containsBlock(nb.opp[:nb.nOpp], bi) {
				continue
			}
			nb.opp[nb.nOpp] = bi
			nb.nOpp++
			switch bi.nlibs {
			case 1:
				nb.captured[nb.nCaptured] = bi
				nb.nCaptured++
				nb.killed += bi.size
			case 2:
				nb.oppTwoLib++
			}
		}
	}
	nb.libsAfter.Remove(p)
	for _, c := range nb.captured[:nb.nCaptured] {
		// A captured stone becomes a liberty of the new block when it
		// touches the move or one of the own blocks that join it.
		pos.BlockStones(c.head, func(s game.Point) {
			for _, q := range pos.Neighbors(s) {
				if q == p || (pos.At(q) == a.me && containsBlock(nb.own[:nb.nOwn], a.block(q))) {
					nb.libsAfter.Add(s)
					return
				}
			}
		})
	}
	nb.nLibsAfter = nb.libsAfter.Len()
}

func containsBlock(bs []*blockInfo, b *blockInfo) bool {
	for _, x := range bs {
		if x == b {
			return true
		}
	}
	return false
}

// tactical appends the ids of the groups capture .. cut for the legal move
// p, in id order.
func (a *analysis) tactical(p game.Point, nb *neighbourhood, ids []int32) []int32 {
	a.look(p, nb)
	if id, ok := a.captureFeature(nb); ok {
		ids = append(ids, id)
	}
	if nb.ownAtari > 0 && nb.nCaptured == 0 && nb.nLibsAfter >= 2 {
		id := idExtensionNotLadder
		if nb.nLibsAfter == 2 && a.attackerCaptures(a.afterBoard(p), p) {
			id = idExtensionLadder
		}
		ids = append(ids, id)
	}
	if nb.oppTwoLib > 0 {
		ids = append(ids, a.atariFeature(p, nb))
	}
	if nb.nCaptured == 0 && nb.nLibsAfter == 1 {
		ids = append(ids, idSelfAtari+stoneBucket(nb.sizeAfter))
	}
	switch {
	case nb.oppTwoLib >= 2:
		ids = append(ids, idDoubleAtari)
	case nb.ownTwoLib >= 2:
		ids = append(ids, idDoubleAtariDefend)
	}
	if id, ok := a.ladderFeature(p, nb); ok {
		ids = append(ids, id)
	}
	if saved := a.savedStones(nb); saved > 0 {
		ids = append(ids, idSave+stoneBucket(saved))
	}
	if nb.killed > 0 {
		ids = append(ids, idKill+stoneBucket(nb.killed))
	}
	if nb.nOwn >= 2 {
		ids = append(ids, idConnect2+int32(min(nb.nOwn, 3)-2))
	}
	if cut := nb.nOpp - nb.nCaptured; cut >= 2 {
		ids = append(ids, idCut2+int32(min(cut, 3)-2))
	}
	return ids
}

// captureFeature picks the capture feature of a capturing move: the first
// that applies in id order.
func (a *analysis) captureFeature(nb *neighbourhood) (int32, bool) {
	if nb.nCaptured == 0 {
		return 0, false
	}
	caps := nb.captured[:nb.nCaptured]
	for _, c := range caps {
		if c.nextToNewAtari {
			return idCaptureAdjAtari, true
		}
	}
	if a.lastHead != game.NoPoint {
		for _, c := range caps {
			if c.head == a.lastHead {
				return idCaptureRecapture, true
			}
		}
		for _, o := range nb.opp[:nb.nOpp] {
			if o.head == a.lastHead {
				// The last move's block touches the point and survives:
				// the capture keeps it from connecting here.
				return idCapturePreventConnection, true
			}
		}
	}
	if nb.nCaptured >= 2 {
		return idCaptureMultiple, true
	}
	for _, c := range caps {
		if !a.ladderDead(c) {
			return idCaptureNotLadder, true
		}
	}
	return idCaptureLadder, true
}

// atariFeature classifies a move that puts opponent blocks in atari.
func (a *analysis) atariFeature(p game.Point, nb *neighbourhood) int32 {
	after := a.afterBoard(p)
	for _, o := range nb.opp[:nb.nOpp] {
		if o.nlibs == 2 && a.defenderDies(after, o.head) {
			return idAtariLadder
		}
	}
	if a.koOnBoard {
		return idAtariKo
	}
	return idAtariOther
}

// ladderFeature gives the two-liberty ladder feature of the move, if any.
func (a *analysis) ladderFeature(p game.Point, nb *neighbourhood) (int32, bool) {
	threatened := false
	for _, o := range nb.own[:nb.nOwn] {
		if o.nlibs == 2 && a.ladderDead(o) {
			threatened = true
			break
		}
	}
	switch {
	case threatened && nb.nLibsAfter >= 3:
		return idLadderSave, true
	case threatened && nb.nLibsAfter <= 1:
		return idLadderStill, true
	case threatened:
		if a.attackerCaptures(a.afterBoard(p), p) {
			return idLadderStill, true
		}
		return idLadderSave, true
	case nb.ownAtari == 0 && nb.nLibsAfter == 2 && !a.quickSafe(p, nb) && a.attackerCaptures(a.afterBoard(p), p):
		// Extensions from atari are the extension group's business.
		return idLadderSelf, true
	}
	return 0, false
}

// savedStones counts the own stones in atari that the move takes out of
// atari: blocks it joins when the joined block has two liberties or more,
// and blocks next to a block it captures.
func (a *analysis) savedStones(nb *neighbourhood) int {
	if len(a.ownAtari) == 0 {
		return 0
	}
	saved := 0
	for _, i := range a.ownAtari {
		bi := &a.blocks[i]
		if containsBlock(nb.own[:nb.nOwn], bi) {
			if nb.nLibsAfter >= 2 {
				saved += bi.size
			}
			continue
		}
		if a.touchesCaptured(bi, nb) {
			saved += bi.size
		}
	}
	return saved
}

// touchesCaptured reports whether some stone of block bi is next to a block
// the move captures.
func (a *analysis) touchesCaptured(bi *blockInfo, nb *neighbourhood) bool {
	if nb.nCaptured == 0 {
		return false
	}
	pos := a.pos
	found := false
	pos.BlockStones(bi.head, func(s game.Point) {
		for _, q := range pos.Neighbors(s) {
			if pos.At(q) == a.opp && containsBlock(nb.captured[:nb.nCaptured], a.block(q)) {
				found = true
			}
		}
	})
	return found
}

// quickSafe reports, without playing p, that the block p makes (with two
// liberties) escapes either atari at once: the cheap test that spares most
// two-liberty moves a ladder read.
func (a *analysis) quickSafe(p game.Point, nb *neighbourhood) bool {
	var two [2]game.Point
	k := 0
	nb.libsAfter.ForEach(func(q game.Point) {
		if k < 2 {
			two[k] = q
			k++
		}
	})
	b := &a.pos.Board
	return surelyEscapes(b, two[1], two[0], p) && surelyEscapes(b, two[0], two[1], p)
}
