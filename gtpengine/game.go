package gtpengine

import (
	"errors"
	"fmt"

	"lifezero/features"
	"lifezero/game"
	"lifezero/sgf"
)

// Move is a move of a game: a colour and a point or game.Pass.
type Move struct {
	Color game.Color
	Point game.Point
}

// Game is the state a GTP engine keeps: the start position (the empty
// board, handicap stones, or a position loaded from SGF), the moves played
// since, the current position and komi. Undo replays the moves but the
// last from the start position, so the superko history stays exact.
type Game struct {
	Komi  float64
	start *game.Position
	moves []Move
	pos   *game.Position
}

// NewGame returns the empty board of the given size with Black to move.
func NewGame(size int, komi float64) (*Game, error) {
	pos, err := game.NewPosition(size)
	if err != nil {
		return nil, err
	}
	return &Game{Komi: komi, start: pos, pos: pos.Copy()}, nil
}

// Position returns the current position; the caller must not modify it.
func (g *Game) Position() *game.Position { return g.pos }

// Size returns the side length of the board.
func (g *Game) Size() int { return g.pos.Size() }

// Moves returns the moves played since the start position; the caller must
// not modify them.
func (g *Game) Moves() []Move { return g.moves }

// Start returns a copy of the start position.
func (g *Game) Start() *game.Position { return g.start.Copy() }

// History returns the last two moves the feature extractor needs.
func (g *Game) History() features.History {
	pts := make([]game.Point, 0, 2)
	for _, m := range g.moves[max(0, len(g.moves)-2):] {
		pts = append(pts, m.Point)
	}
	return features.HistoryOf(pts)
}

// Play plays p for colour c, whoever's turn it is (GTP lets a controller
// play a colour twice in a row). An illegal move is an error and changes
// nothing.
func (g *Game) Play(c game.Color, p game.Point) error {
	if c != game.Black && c != game.White {
		return fmt.Errorf("gtpengine: cannot play colour %v", c)
	}
	next := g.pos.Copy()
	next.SetToMove(c)
	if err := next.Play(p); err != nil {
		return err
	}
	g.pos = next
	g.moves = append(g.moves, Move{c, p})
	return nil
}

// ErrNoMoves is returned by Undo when no move has been played since the
// start position.
var ErrNoMoves = errors.New("cannot undo")

// Undo takes back the last move.
func (g *Game) Undo() error {
	if len(g.moves) == 0 {
		return ErrNoMoves
	}
	pos := g.start.Copy()
	for i, m := range g.moves[:len(g.moves)-1] {
		pos.SetToMove(m.Color)
		if err := pos.Play(m.Point); err != nil { // was played before: cannot happen
			return fmt.Errorf("gtpengine: undo: move %d no longer replays: %w", i+1, err)
		}
	}
	g.pos = pos
	g.moves = g.moves[:len(g.moves)-1]
	return nil
}

// Setup places stones of colour c on an empty board before any move
// (handicap stones) and gives the turn to the other colour.
func (g *Game) Setup(c game.Color, points []game.Point) error {
	if len(g.moves) > 0 || !isEmpty(g.pos) {
		return errors.New("board not empty")
	}
	pos := g.start.Copy()
	for _, p := range points {
		if err := pos.Place(c, p); err != nil {
			return fmt.Errorf("bad vertex list: %w", err)
		}
	}
	pos.SetToMove(c.Opponent())
	pos.ClearHistory()
	g.start, g.pos = pos, pos.Copy()
	return nil
}

// isEmpty reports whether no stone is on the board.
func isEmpty(pos *game.Position) bool {
	empty := true
	all := pos.AllPoints()
	all.ForEach(func(p game.Point) {
		if pos.At(p) != game.Empty {
			empty = false
		}
	})
	return empty
}

// LoadSGF reads the first game of an SGF collection up to, not including,
// move number moveNumber (1 is the first move; 0 or less: every move) and
// returns it as a new game: the board size (SZ, 19 when absent), the setup
// stones of the root node (AB, AW), the side to move (PL), komi (KM) and
// the moves of the main line. Setup in later nodes is refused.
func LoadSGF(c sgf.Collection, moveNumber int, defaultKomi float64) (*Game, error) {
	if len(c) == 0 {
		return nil, errors.New("no game in the file")
	}
	root := c[0]
	size := 19
	if v, ok := root.Get("SZ"); ok {
		if _, err := fmt.Sscanf(v, "%d", &size); err != nil {
			return nil, fmt.Errorf("SZ[%s]: not a board size", v)
		}
	}
	g, err := NewGame(size, defaultKomi)
	if err != nil {
		return nil, err
	}
	if v, ok := root.Get("KM"); ok {
		if _, err := fmt.Sscanf(v, "%g", &g.Komi); err != nil {
			return nil, fmt.Errorf("KM[%s]: not a number", v)
		}
	}
	pos := g.start
	for _, setup := range []struct {
		id string
		c  game.Color
	}{{"AB", game.Black}, {"AW", game.White}} {
		pts, err := sgf.ExpandPointList(root.GetAll(setup.id), size)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", setup.id, err)
		}
		for _, p := range pts {
			if err := pos.Place(setup.c, pos.Point(p.X, p.Y)); err != nil {
				return nil, fmt.Errorf("%s: %w", setup.id, err)
			}
		}
	}
	if err := pos.CheckNoDeadBlocks(); err != nil {
		return nil, err
	}
	if v, ok := root.Get("PL"); ok {
		c, err := game.ParseColor(v)
		if err != nil {
			return nil, fmt.Errorf("PL: %w", err)
		}
		pos.SetToMove(c)
	} else if len(root.GetAll("AB")) > 0 && len(root.GetAll("AW")) == 0 {
		pos.SetToMove(game.White) // handicap stones: White moves first
	}
	g.pos = pos.Copy()
	for i, n := range root.MainLine() {
		if i > 0 && (len(n.GetAll("AB")) > 0 || len(n.GetAll("AW")) > 0 || len(n.GetAll("AE")) > 0) {
			return nil, fmt.Errorf("node %d: setup stones after the root are not supported", i)
		}
		for c, v := range game.NodeMoves(n) {
			if moveNumber > 0 && len(g.moves)+1 >= moveNumber {
				return g, nil
			}
			p, err := pos.ParsePoint(v)
			if err != nil {
				return nil, fmt.Errorf("move %d: %w", len(g.moves)+1, err)
			}
			if err := g.Play(c, p); err != nil {
				return nil, fmt.Errorf("move %d: %w", len(g.moves)+1, err)
			}
		}
	}
	return g, nil
}
