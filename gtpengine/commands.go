package gtpengine

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"lifezero/game"
	"lifezero/sgf"
)

// commandTable lists the commands in the order list_commands gives them.
func (e *Engine) commandTable() []command {
	return []command{
		{"protocol_version", func(context.Context, []string) (string, error) { return "2", nil }},
		{"name", func(context.Context, []string) (string, error) { return e.opts.Name, nil }},
		{"version", e.version},
		{"known_command", e.knownCommand},
		{"list_commands", e.listCommands},
		{"quit", func(context.Context, []string) (string, error) { return "", errQuit }},
		{"boardsize", e.boardsize},
		{"clear_board", e.clearBoard},
		{"komi", e.komi},
		{"play", e.play},
		{"genmove", e.genmoveCmd},
		{"undo", e.undo},
		{"showboard", e.showboard},
		{"loadsgf", e.loadsgf},
		{"final_score", e.finalScore},
		{"fixed_handicap", e.fixedHandicap},
		{"set_free_handicap", e.setFreeHandicap},
		{"set_random_seed", e.setRandomSeed},
		{"time_settings", e.timeSettings},
		{"time_left", e.timeLeft},
		{"gogui-analyze_commands", e.analyzeCommands},
		{cmdSolve, e.solveCmd},
		{cmdSolveGfx, e.solveGfxCmd},
	}
}

func (e *Engine) version(context.Context, []string) (string, error) {
	v := e.opts.Version
	if v == "" {
		v = "dev"
	}
	return v + " (" + e.player.Name() + ")", nil
}

func (e *Engine) knownCommand(_ context.Context, args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error: known_command NAME")
	}
	_, ok := e.byName[args[0]]
	return strconv.FormatBool(ok), nil
}

func (e *Engine) listCommands(context.Context, []string) (string, error) {
	names := make([]string, len(e.commands))
	for i, c := range e.commands {
		names[i] = c.name
	}
	return strings.Join(names, "\n"), nil
}

func (e *Engine) boardsize(_ context.Context, args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error: boardsize SIZE")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return "", errors.New("boardsize not an integer")
	}
	if e.checkSize(n) != nil {
		return "", errors.New("unacceptable size")
	}
	g, err := NewGame(n, e.game.Komi)
	if err != nil {
		return "", errors.New("unacceptable size")
	}
	e.game = g
	return "", nil
}

func (e *Engine) clearBoard(_ context.Context, args []string) (string, error) {
	g, err := NewGame(e.game.Size(), e.game.Komi)
	if err != nil {
		return "", err
	}
	e.game = g
	return "", nil
}

func (e *Engine) komi(_ context.Context, args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error: komi VALUE")
	}
	k, err := strconv.ParseFloat(args[0], 64)
	if err != nil || k != k || k > 1e6 || k < -1e6 {
		return "", errors.New("komi not a float")
	}
	e.game.Komi = k
	return "", nil
}

// parseColor reads a GTP colour ("b", "black", "W", ...).
func parseColor(s string) (game.Color, error) {
	c, err := game.ParseColor(s)
	if err != nil {
		return game.Empty, errors.New("invalid color")
	}
	return c, nil
}

// parseVertex reads a GTP vertex of the current board or "pass".
func (e *Engine) parseVertex(s string) (game.Point, error) {
	p, err := e.game.Position().ParseGTP(s)
	if err != nil {
		return game.NoPoint, errors.New("invalid coordinate")
	}
	return p, nil
}

func (e *Engine) play(_ context.Context, args []string) (string, error) {
	if len(args) != 2 {
		return "", errors.New("syntax error: play COLOR VERTEX")
	}
	c, err := parseColor(args[0])
	if err != nil {
		return "", err
	}
	p, err := e.parseVertex(args[1])
	if err != nil {
		return "", err
	}
	if err := e.game.Play(c, p); err != nil {
		return "", errors.New("illegal move")
	}
	return "", nil
}

func (e *Engine) genmoveCmd(ctx context.Context, args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error: genmove COLOR")
	}
	c, err := parseColor(args[0])
	if err != nil {
		return "", err
	}
	m, err := e.genmove(ctx, c)
	switch {
	case err != nil:
		return "", err
	case m == game.NoPoint:
		return "resign", nil
	}
	return e.game.Position().GTPString(m), nil
}

func (e *Engine) undo(context.Context, []string) (string, error) {
	if err := e.game.Undo(); err != nil {
		return "", errors.New("cannot undo")
	}
	return "", nil
}

func (e *Engine) showboard(context.Context, []string) (string, error) {
	pos := e.game.Position()
	return fmt.Sprintf("\n%s%v to move, komi %s, captured stones: black %d, white %d",
		pos.String(), pos.ToMove(), trimFloat(e.game.Komi), pos.Captured(game.White), pos.Captured(game.Black)), nil
}

func (e *Engine) loadsgf(_ context.Context, args []string) (string, error) {
	if len(args) < 1 || len(args) > 2 {
		return "", errors.New("syntax error: loadsgf FILE [MOVE_NUMBER]")
	}
	moveNumber := 0
	if len(args) == 2 {
		n, err := strconv.Atoi(args[1])
		if err != nil {
			return "", errors.New("syntax error: move number not an integer")
		}
		moveNumber = n
	}
	c, err := sgf.ParseFile(args[0])
	if err != nil {
		return "", fmt.Errorf("cannot load file: %w", err)
	}
	g, err := LoadSGF(c, moveNumber, e.game.Komi)
	if err != nil {
		return "", fmt.Errorf("cannot load file: %w", err)
	}
	if err := e.checkSize(g.Size()); err != nil {
		return "", fmt.Errorf("cannot load file: board size %d: %w", g.Size(), err)
	}
	e.game = g
	return ColorName(g.Position().ToMove()), nil
}

func (e *Engine) finalScore(context.Context, []string) (string, error) {
	return FormatScore(AreaScore(e.game.Position(), e.game.Komi)), nil
}

func (e *Engine) fixedHandicap(_ context.Context, args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error: fixed_handicap NUMBER")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return "", errors.New("number of stones not an integer")
	}
	pts, err := HandicapPoints(&e.game.Position().Board, n)
	if err != nil {
		return "", err
	}
	if err := e.game.Setup(game.Black, pts); err != nil {
		return "", err
	}
	return e.vertices(pts), nil
}

func (e *Engine) setFreeHandicap(_ context.Context, args []string) (string, error) {
	if len(args) < 2 {
		return "", errors.New("invalid number of stones")
	}
	pts := make([]game.Point, len(args))
	for i, a := range args {
		p, err := e.parseVertex(a)
		if err != nil || p == game.Pass {
			return "", errors.New("bad vertex list")
		}
		pts[i] = p
	}
	if err := e.game.Setup(game.Black, pts); err != nil {
		return "", err
	}
	return "", nil
}

// setRandomSeed reseeds the draws of the opening moves and tie-breaks (as
// GNU Go's command of that name does), so that a match controller can make
// every game reproducible whatever ran before it.
func (e *Engine) setRandomSeed(_ context.Context, args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error: set_random_seed SEED")
	}
	seed, err := strconv.ParseUint(args[0], 10, 64)
	if err != nil {
		return "", errors.New("seed not a non-negative integer")
	}
	e.rng = newRand(seed)
	return "", nil
}

// timeSettings accepts GTP's time settings (main time, byo-yomi time and
// stones) and ignores them: the players take no clock into account, and
// they move in well under a second except PUCT search with many
// simulations.
func (e *Engine) timeSettings(_ context.Context, args []string) (string, error) {
	if len(args) != 3 || !allInts(args) {
		return "", errors.New("syntax error: time_settings MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES")
	}
	return "", nil
}

// timeLeft accepts a controller's clock report and ignores it.
func (e *Engine) timeLeft(_ context.Context, args []string) (string, error) {
	if len(args) != 3 || !allInts(args[1:]) {
		return "", errors.New("syntax error: time_left COLOR TIME STONES")
	}
	if _, err := parseColor(args[0]); err != nil {
		return "", err
	}
	return "", nil
}

func allInts(args []string) bool {
	for _, a := range args {
		if _, err := strconv.Atoi(a); err != nil {
			return false
		}
	}
	return true
}

func (e *Engine) vertices(pts []game.Point) string {
	s := make([]string, len(pts))
	for i, p := range pts {
		s[i] = e.game.Position().GTPString(p)
	}
	return strings.Join(s, " ")
}

// HandicapPoints returns the standard points of n fixed handicap stones
// (GTP 2, section 4.1.1): on the third line from the edges on boards up to
// 12x12, the fourth on larger ones; at most 4 stones on 7x7 and even sizes,
// 9 otherwise; none below 7x7.
func HandicapPoints(b *game.Board, n int) ([]game.Point, error) {
	size := b.Size()
	limit := 9
	if size%2 == 0 || size == 7 {
		limit = 4
	}
	if size < 7 || n < 2 || n > limit {
		return nil, errors.New("invalid number of stones")
	}
	lo := 2
	if size >= 13 {
		lo = 3
	}
	hi, mid := size-1-lo, size/2
	// Column, row from the top; the GTP order: D4 Q16 D16 Q4 ...
	ll, ur, ul, lr := [2]int{lo, hi}, [2]int{hi, lo}, [2]int{lo, lo}, [2]int{hi, hi}
	centre, left, right, bottom, top := [2]int{mid, mid}, [2]int{lo, mid}, [2]int{hi, mid}, [2]int{mid, hi}, [2]int{mid, lo}
	var xy [][2]int
	switch n {
	case 2:
		xy = [][2]int{ll, ur}
	case 3:
		xy = [][2]int{ll, ur, ul}
	case 4:
		xy = [][2]int{ll, ur, ul, lr}
	case 5:
		xy = [][2]int{ll, ur, ul, lr, centre}
	case 6:
		xy = [][2]int{ll, ur, ul, lr, left, right}
	case 7:
		xy = [][2]int{ll, ur, ul, lr, left, right, centre}
	case 8:
		xy = [][2]int{ll, ur, ul, lr, left, right, bottom, top}
	case 9:
		xy = [][2]int{ll, ur, ul, lr, left, right, bottom, top, centre}
	}
	pts := make([]game.Point, len(xy))
	for i, p := range xy {
		pts[i] = b.Point(p[0], p[1])
	}
	return pts, nil
}
