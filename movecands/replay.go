package movecands

import (
	"fmt"
	"strings"

	"lifezero/datasets"
	"lifezero/features"
	"lifezero/game"
)

// Reasons a game is not replayed (SkipError.Reason). Builders count them.
const (
	SkipHandicap  = "handicap"     // HA > 0: handicap stones are not in the moves
	SkipBoardSize = "board_size"   // outside game.MinSize..game.MaxSize
	SkipNoMoves   = "no_moves"     // an empty main line
	SkipMalformed = "malformed"    // the moves string cannot be read
	SkipOutOfTurn = "out_of_turn"  // a colour moves twice in a row, or White first
	SkipIllegal   = "illegal_move" // a move the rules forbid (setup stones missing, corrupt record)
	SkipDuplicate = "duplicate_id" // the same game id seen before in the inputs
)

// SkipError says why a game cannot be replayed.
type SkipError struct {
	Reason string // one of the Skip* constants
	Move   int    // 1-based number of the offending move; 0 when not about one move
	Err    error  // details
}

func (e *SkipError) Error() string {
	msg := "game skipped: " + e.Reason
	if e.Move > 0 {
		msg += fmt.Sprintf(" at move %d", e.Move)
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func skip(reason string, move int, format string, args ...any) *SkipError {
	return &SkipError{Reason: reason, Move: move, Err: fmt.Errorf(format, args...)}
}

// Record is a game that replays as an even game from the empty board.
type Record struct {
	Size  int
	Moves []game.Point // in order, Black first, colours alternating; game.Pass for a pass
}

// ParseGame reads the main line of a games-dataset row and replays it once to
// check it. Games that do not replay give a *SkipError.
func ParseGame(g *datasets.Game) (*Record, error) {
	switch {
	case g.Handicap > 0:
		return nil, skip(SkipHandicap, 0, "HA[%d]", g.Handicap)
	case g.BoardSize < game.MinSize || g.BoardSize > game.MaxSize:
		return nil, skip(SkipBoardSize, 0, "SZ[%d]: want %d..%d", g.BoardSize, game.MinSize, game.MaxSize)
	case strings.TrimSpace(g.Moves) == "":
		return nil, skip(SkipNoMoves, 0, "the main line has no moves")
	}
	pos, err := game.NewPosition(int(g.BoardSize))
	if err != nil {
		return nil, skip(SkipBoardSize, 0, "%v", err)
	}
	parts := strings.Split(g.Moves, ";")
	rec := &Record{Size: int(g.BoardSize), Moves: make([]game.Point, 0, len(parts))}
	for i, part := range parts {
		color, value, err := splitMove(part)
		if err != nil {
			return nil, skip(SkipMalformed, i+1, "%q: %v", part, err)
		}
		if color != pos.ToMove() {
			return nil, skip(SkipOutOfTurn, i+1, "%v to move but %v played", pos.ToMove(), color)
		}
		m, err := pos.ParsePoint(value)
		if err != nil {
			return nil, skip(SkipMalformed, i+1, "%v", err)
		}
		if err := pos.Play(m); err != nil {
			return nil, skip(SkipIllegal, i+1, "%v", err)
		}
		rec.Moves = append(rec.Moves, m)
	}
	if int(g.NumMoves) != len(rec.Moves) {
		return nil, skip(SkipMalformed, 0, "num_moves is %d but the main line has %d moves", g.NumMoves, len(rec.Moves))
	}
	return rec, nil
}

// splitMove reads one "B[pd]" of a games row's moves.
func splitMove(s string) (game.Color, string, error) {
	if len(s) < 3 || s[1] != '[' || s[len(s)-1] != ']' {
		return game.Empty, "", fmt.Errorf("want B[..] or W[..]")
	}
	var c game.Color
	switch s[0] {
	case 'B':
		c = game.Black
	case 'W':
		c = game.White
	default:
		return game.Empty, "", fmt.Errorf("colour %q: want B or W", s[0])
	}
	return c, s[2 : len(s)-1], nil
}

// Replay plays the record from the empty board and calls visit before every
// move with the position (the side to move is the one who played), the
// history the features need, and the move played. The position is live:
// visit must neither modify it nor keep it. It stops at visit's first error.
func (r *Record) Replay(visit func(pos *game.Position, h features.History, played game.Point) error) error {
	pos, err := game.NewPosition(r.Size)
	if err != nil {
		return err
	}
	for i, m := range r.Moves {
		if err := visit(pos, features.HistoryOf(r.Moves[:i]), m); err != nil {
			return err
		}
		if err := pos.Play(m); err != nil {
			return fmt.Errorf("movecands: move %d no longer replays: %w", i+1, err) // ParseGame checked it
		}
	}
	return nil
}
