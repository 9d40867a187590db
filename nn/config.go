package nn

import (
	"fmt"
	"strconv"
	"strings"

	"lifezero/game"
)

// Config is the shape of a network. It is stored in the weights file, so a
// loaded network always knows its own shape.
type Config struct {
	// Board is the side length of the board (5..19).
	Board int `json:"board"`
	// Blocks is the number of residual blocks after the stem convolution.
	Blocks int `json:"blocks"`
	// Filters is the number of channels of the tower.
	Filters int `json:"filters"`
	// D is the number of FTL outputs: output d-1 estimates the probability
	// that the living side lives within d moves.
	D int `json:"d"`
	// MoveNumberPlanes is the number of one-hot move-number planes (0 for
	// none; the reference 7x7 nets use 99, for move numbers 0..98, larger
	// move numbers set the last plane).
	MoveNumberPlanes int `json:"move_number_planes"`
	// ValueHidden is the width of the fully connected layer shared by the
	// value and d-win heads (256 in the reference nets).
	ValueHidden int `json:"value_hidden"`
}

// Preset names, "<blocks>x<filters>".
const (
	Preset5x64 = "5x64" // the paper's network
	Preset3x32 = "3x32"
	Preset2x16 = "2x16" // fast on a CPU, for tests and smoke runs
)

// DefaultD returns the default number of FTL outputs for a board: 2N² on
// boards up to 9x9 (98 on 7x7, where the problem files ask for d up to 40
// and games run long), 30 on larger boards as in the paper.
func DefaultD(board int) int {
	if board <= 9 {
		return 2 * board * board
	}
	return 30
}

// Preset returns the named configuration ("5x64", "3x32", "2x16", or any
// "<blocks>x<filters>") for a board, with the default D, a 256-wide value
// layer and no move-number planes.
func Preset(name string, board int) (Config, error) {
	bs, fs, ok := strings.Cut(name, "x")
	blocks, err1 := strconv.Atoi(bs)
	filters, err2 := strconv.Atoi(fs)
	if !ok || err1 != nil || err2 != nil {
		return Config{}, fmt.Errorf("nn: preset %q: want <blocks>x<filters>, e.g. %q", name, Preset5x64)
	}
	c := Config{Board: board, Blocks: blocks, Filters: filters, D: DefaultD(board), ValueHidden: 256}
	if err := c.Validate(); err != nil {
		return Config{}, fmt.Errorf("nn: preset %q: %w", name, err)
	}
	return c, nil
}

// Validate checks that every field is in range.
func (c Config) Validate() error {
	switch {
	case c.Board < game.MinSize || c.Board > game.MaxSize:
		return fmt.Errorf("board %d out of range %d..%d", c.Board, game.MinSize, game.MaxSize)
	case c.Blocks < 0 || c.Blocks > 64:
		return fmt.Errorf("blocks %d out of range 0..64", c.Blocks)
	case c.Filters < 1 || c.Filters > 1024:
		return fmt.Errorf("filters %d out of range 1..1024", c.Filters)
	case c.D < 1 || c.D > 4096:
		return fmt.Errorf("d %d out of range 1..4096", c.D)
	case c.MoveNumberPlanes < 0 || c.MoveNumberPlanes > 1024:
		return fmt.Errorf("move_number_planes %d out of range 0..1024", c.MoveNumberPlanes)
	case c.ValueHidden < 1 || c.ValueHidden > 4096:
		return fmt.Errorf("value_hidden %d out of range 1..4096", c.ValueHidden)
	}
	return nil
}

// Points returns the number of board points, N².
func (c Config) Points() int { return c.Board * c.Board }

// PolicySize returns the number of policy outputs: N² points (index
// y*N+x) and pass (index N²).
func (c Config) PolicySize() int { return c.Points() + 1 }

// Planes returns the number of input planes.
func (c Config) Planes() int { return NumFixedPlanes + c.MoveNumberPlanes }

// InputSize returns the number of floats of one encoded position.
func (c Config) InputSize() int { return c.Planes() * c.Points() }

// String returns a short description such as "5x64 7x7 d=98".
func (c Config) String() string {
	s := fmt.Sprintf("%dx%d %dx%d d=%d", c.Blocks, c.Filters, c.Board, c.Board, c.D)
	if c.MoveNumberPlanes > 0 {
		s += fmt.Sprintf(" moves=%d", c.MoveNumberPlanes)
	}
	return s
}
