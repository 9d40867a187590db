package tsumego

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"lifezero/game"
	"lifezero/sgf"
)

// Problem is one first-move problem: the position to play and the book's
// first move.
type Problem struct {
	Name     string // the file's base name
	Position *game.Position
	Answer   game.Point
	// From names the book problem a proof sample was taken from (see
	// ProofSamples), and Depth its moves from that problem's position;
	// both are zero for a book problem.
	From  string
	Depth int
}

// Load reads every .sgf file of dir, sorted by name. Each file must set up a
// position (AB/AW, PL) and give the book's first move as the first B or W
// node of its main line, played by the side to move.
func Load(dir string) ([]Problem, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("tsumego: %w", err)
	}
	var problems []Problem
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.EqualFold(filepath.Ext(e.Name()), ".sgf") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		p, err := LoadFile(path)
		if err != nil {
			return nil, err
		}
		problems = append(problems, p)
	}
	if len(problems) == 0 {
		return nil, fmt.Errorf("tsumego: %s: no .sgf files", dir)
	}
	slices.SortFunc(problems, func(a, b Problem) int { return strings.Compare(a.Name, b.Name) })
	return problems, nil
}

// LoadFile reads one first-move problem (see Load).
func LoadFile(path string) (Problem, error) {
	coll, err := sgf.ParseFile(path)
	if err != nil {
		return Problem{}, fmt.Errorf("tsumego: %s: %w", path, err)
	}
	if len(coll) == 0 {
		return Problem{}, fmt.Errorf("tsumego: %s: no game in the file", path)
	}
	root := coll[0]
	pos, err := game.SetupPosition(root)
	if err != nil {
		return Problem{}, fmt.Errorf("tsumego: %s: %w", path, err)
	}
	answer, err := firstMove(pos, root)
	if err != nil {
		return Problem{}, fmt.Errorf("tsumego: %s: %w", path, err)
	}
	return Problem{Name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), Position: pos, Answer: answer}, nil
}

// firstMove finds the main line's first move and checks that the side to
// move plays it legally.
func firstMove(pos *game.Position, root *sgf.Node) (game.Point, error) {
	for _, n := range root.MainLine() {
		for c, v := range game.NodeMoves(n) {
			if c != pos.ToMove() {
				return game.NoPoint, fmt.Errorf("the first move %v[%s] is not by the side to play (%v)", c, v, pos.ToMove())
			}
			m, err := pos.ParsePoint(v)
			if err != nil {
				return game.NoPoint, fmt.Errorf("the first move %v[%s]: %w", c, v, err)
			}
			if m == game.Pass || !pos.IsLegal(m) {
				return game.NoPoint, fmt.Errorf("the first move %v[%s] is not a legal board move", c, v)
			}
			return m, nil
		}
	}
	return game.NoPoint, fmt.Errorf("no first move (B or W) in the main line")
}
