package game

import (
	"errors"
	"fmt"
	"iter"
	"strconv"
	"strings"

	"lifezero/sgf"
)

// problemFromSGF builds a problem from the first game of an SGF text: the
// setup stones (AB/AW), the main line's moves, PL, TR (crucial stones), MA
// (region) and KM (ftl_d). Goals are inferred as LoadProblem documents.
func problemFromSGF(text string, inferGoals bool) (*Problem, error) {
	coll, err := sgf.ParseString(text)
	if err != nil {
		return nil, err
	}
	if len(coll) == 0 {
		return nil, errors.New("no game in the SGF")
	}
	root := coll[0]
	pos, err := SetupPosition(root)
	if err != nil {
		return nil, err
	}
	size := pos.Size()
	pr := &Problem{Start: pos, Answer: NoPoint}
	if err := playMainLine(pos, coll[0].MainLine()); err != nil {
		return nil, err
	}
	// PL names the side to play after the main line (the kill-all
	// opening is written B, W pass, B, then PL).
	if err := applyPL(pos, root); err != nil {
		return nil, err
	}
	pos.ClearHistory()
	if v, ok := root.Get("KM"); ok {
		// KM holds ftl_d. In a problem file it must be one (0 says none);
		// the SGF inside a JSON problem may hold anything, as the JSON's
		// own ftl_d field is what counts there.
		d, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		switch {
		case err != nil && !errors.Is(err, strconv.ErrRange):
			if inferGoals {
				return nil, fmt.Errorf("KM[%s] (ftl_d): not a whole number", v)
			}
		case d == 0:
		case checkFTLD(d, size) != nil:
			if inferGoals {
				return nil, fmt.Errorf("KM[%s] (ftl_d): %d %w", v, d, checkFTLD(d, size))
			}
		default:
			pr.FTLD = int(d)
		}
	}
	if pr.Crucial, err = pointProperty(pos, root, "TR"); err != nil {
		return nil, err
	}
	if pr.Region, err = pointProperty(pos, root, "MA"); err != nil {
		return nil, err
	}
	if pr.Region.Empty() {
		pr.Region = pos.AllPoints()
	}
	if !inferGoals {
		return pr, nil
	}
	if err := pr.inferGoals(root); err != nil {
		return nil, err
	}
	return pr, pr.validate(false)
}

func placeSetup(pos *Position, root *sgf.Node) error {
	for _, prop := range []struct {
		id string
		c  Color
	}{{"AB", Black}, {"AW", White}} {
		set, err := pointProperty(pos, root, prop.id)
		if err != nil {
			return err
		}
		var placeErr error
		set.ForEach(func(p Point) {
			if placeErr == nil {
				placeErr = pos.Place(prop.c, p)
			}
		})
		if placeErr != nil {
			return fmt.Errorf("%s: %w", prop.id, placeErr)
		}
	}
	return pos.CheckNoDeadBlocks()
}

// NodeMoves yields the moves an SGF node records: its B value, then its W
// value, each with its colour (the SGF text, not yet parsed).
func NodeMoves(n *sgf.Node) iter.Seq2[Color, string] {
	return func(yield func(Color, string) bool) {
		for _, c := range []Color{Black, White} {
			id := "B"
			if c == White {
				id = "W"
			}
			if v, ok := n.Get(id); ok && !yield(c, v) {
				return
			}
		}
	}
}

// playMainLine plays the B/W moves of the main line in order, whoever's turn
// the position says (the kill-all opening is written B, W pass, B).
func playMainLine(pos *Position, line []*sgf.Node) error {
	for i, n := range line {
		for c, v := range NodeMoves(n) {
			m, err := pos.ParsePoint(v)
			if err != nil {
				return fmt.Errorf("move %d: %w", i, err)
			}
			pos.SetToMove(c)
			if err := pos.Play(m); err != nil {
				return fmt.Errorf("move %d: %w", i, err)
			}
		}
	}
	return nil
}

func pointProperty(pos *Position, n *sgf.Node, id string) (PointSet, error) {
	var set PointSet
	pts, err := sgf.ExpandPointList(n.GetAll(id), pos.Size())
	if err != nil {
		return set, fmt.Errorf("%s: %w", id, err)
	}
	for _, p := range pts {
		set.Add(pos.Point(p.X, p.Y))
	}
	return set, nil
}

// inferGoals applies the problem sets' conventions when no JSON gives goals:
// TR marks the living side's stones; a board with only moves and no setup
// is 7x7-style kill-all with White living.
func (pr *Problem) inferGoals(root *sgf.Node) error {
	pos := pr.Start
	living := Empty
	if !pr.Crucial.Empty() {
		living = pos.At(pr.Crucial.Points()[0])
	} else if len(root.GetAll("AB"))+len(root.GetAll("AW")) == 0 {
		pr.Goal[White], pr.Goal[Black] = GoalLiveAny, GoalKillAll
		living = White
	}
	switch living {
	case Black, White:
		if pr.Goal[living] == GoalNone {
			pr.Goal[living], pr.Goal[living.Opponent()] = GoalLive, GoalKill
		}
	default:
		return errors.New("cannot tell the goals: no TR crucial stones and not a kill-all game")
	}
	pos.SetKoRule(living, NoKoCapture)
	pos.SetKoRule(living.Opponent(), PositionalSuperko)
	return nil
}

// SetupPosition returns the position an SGF root node sets up: the board
// size (SZ, default 19), the AB/AW stones and the side to move (PL, default
// Black), with no history. The root's own moves and its children are not
// played: a first-move tsumego file keeps the answer there.
func SetupPosition(root *sgf.Node) (*Position, error) {
	size := 19
	if v, ok := root.Get("SZ"); ok {
		var err error
		if size, err = strconv.Atoi(strings.TrimSpace(v)); err != nil {
			return nil, fmt.Errorf("SZ[%s] is not a board size", v)
		}
	}
	pos, err := NewPosition(size)
	if err != nil {
		return nil, err
	}
	if err := placeSetup(pos, root); err != nil {
		return nil, err
	}
	if err := applyPL(pos, root); err != nil {
		return nil, err
	}
	pos.ClearHistory()
	return pos, nil
}

// applyPL gives the move to the side a node's PL names, if it names one.
func applyPL(pos *Position, n *sgf.Node) error {
	v, ok := n.Get("PL")
	if !ok {
		return nil
	}
	c, err := ParseColor(v)
	if err != nil {
		return fmt.Errorf("PL: %w", err)
	}
	pos.SetToMove(c)
	return nil
}
