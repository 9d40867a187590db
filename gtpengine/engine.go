package gtpengine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"lifezero/game"
	"lifezero/gtp"
	"lifezero/mcts"
)

// Options configure an Engine.
type Options struct {
	// Name is the engine's GTP name; "lifezero" when empty.
	Name string
	// Version is the GTP version string; the player's name is appended.
	Version string
	// Size is the board size at start (19 when 0); Komi the komi.
	Size int
	Komi float64
	// Seed seeds the draws of SampleMoves and the tie-breaks.
	Seed uint64
	// SampleMoves: the first SampleMoves moves of a game (counted from
	// its start position) are drawn from the softmax of the player's
	// scores instead of taking the best, so that games differ.
	SampleMoves int
	// NoResign turns resigning off.
	NoResign bool
}

// Engine is a GTP engine: a game, a player and the protocol. It serves one
// controller; its methods must not be called concurrently.
type Engine struct {
	player   Player
	opts     Options
	game     *Game
	rng      *rand.Rand
	commands []command
	byName   map[string]int
	moves    []game.Point
	scores   []float64
	weights  []float64 // pick's softmax weights
}

// command is one GTP command: run gets the arguments and returns the
// success text or an error whose message is the failure reply.
type command struct {
	name string
	run  func(ctx context.Context, args []string) (string, error)
}

// New returns an engine whose moves player chooses.
func New(player Player, opts Options) (*Engine, error) {
	if opts.Name == "" {
		opts.Name = "lifezero"
	}
	if opts.Size == 0 {
		opts.Size = 19
	}
	if opts.SampleMoves < 0 {
		return nil, fmt.Errorf("gtpengine: SampleMoves %d is negative", opts.SampleMoves)
	}
	e := &Engine{player: player, opts: opts, rng: newRand(opts.Seed)}
	if err := e.checkSize(opts.Size); err != nil {
		return nil, fmt.Errorf("gtpengine: board size %d: %w", opts.Size, err)
	}
	g, err := NewGame(opts.Size, opts.Komi)
	if err != nil {
		return nil, fmt.Errorf("gtpengine: %w", err)
	}
	e.game = g
	e.commands = e.commandTable()
	e.byName = make(map[string]int, len(e.commands))
	for i, c := range e.commands {
		e.byName[c.name] = i
	}
	return e, nil
}

// Game returns the engine's current game; the caller must not modify it.
func (e *Engine) Game() *Game { return e.game }

// checkSize reports whether the engine can play on a board of size n.
func (e *Engine) checkSize(n int) error {
	if n < game.MinSize || n > game.MaxSize {
		return fmt.Errorf("boards from %d to %d only", game.MinSize, game.MaxSize)
	}
	if sc, ok := e.player.(SizeChecker); ok {
		return sc.CheckSize(n)
	}
	return nil
}

// errQuit is returned by the quit command: the reply is sent, then the
// engine stops.
var errQuit = errors.New("quit")

// Handle runs one line of GTP input and returns the reply, "" for a line
// that holds no command (empty or a comment). quit is true after the quit
// command.
func (e *Engine) Handle(ctx context.Context, line string) (reply string, quit bool) {
	fields := strings.Fields(clean(line))
	if len(fields) == 0 {
		return "", false
	}
	id := ""
	if isDigits(fields[0]) {
		id, fields = fields[0], fields[1:]
		if len(fields) == 0 {
			return "?" + id + " missing command\n\n", false
		}
	}
	i, ok := e.byName[fields[0]]
	if !ok {
		return "?" + id + " unknown command\n\n", false
	}
	text, err := e.commands[i].run(ctx, fields[1:])
	switch {
	case errors.Is(err, errQuit):
		return "=" + id + " \n\n", true
	case err != nil:
		return "?" + id + " " + oneLine(err.Error()) + "\n\n", false
	}
	return "=" + id + " " + text + "\n\n", false
}

// Serve reads commands from r and writes the replies to w until quit, the
// end of r, a write error or ctx is done (a generated move in progress is
// cancelled with it).
func (e *Engine) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	lines := make(chan string)
	readErr := make(chan error, 1)
	done := make(chan struct{})
	defer close(done)
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-done:
				return
			}
		}
		readErr <- sc.Err()
		close(lines)
	}()
	bw := bufio.NewWriter(w)
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case line, ok := <-lines:
			if !ok {
				if err := <-readErr; err != nil {
					return fmt.Errorf("gtpengine: reading commands: %w", err)
				}
				return nil
			}
			reply, quit := e.Handle(ctx, line)
			if reply == "" {
				continue
			}
			if _, err := bw.WriteString(reply); err != nil {
				return fmt.Errorf("gtpengine: writing a reply: %w", err)
			}
			if err := bw.Flush(); err != nil {
				return fmt.Errorf("gtpengine: writing a reply: %w", err)
			}
			if quit {
				return nil
			}
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
}

// clean applies GTP's preprocessing: control characters other than tab
// are removed, tabs become spaces, and a '#' starts a comment.
func clean(s string) string {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	return gtp.CleanLine(s)
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// oneLine keeps an error message on one line: an empty line would end the
// reply early.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// genmove chooses and plays a move for colour c and returns it, or
// game.NoPoint for a resignation (nothing is played then).
func (e *Engine) genmove(ctx context.Context, c game.Color) (game.Point, error) {
	g := e.game
	if g.pos.ToMove() != c {
		pos := g.pos.Copy()
		pos.SetToMove(c)
		g.pos = pos
	}
	pos := g.pos
	if !e.opts.NoResign && Lost(pos, c, g.Komi) {
		return game.NoPoint, nil
	}
	e.moves = SensibleMoves(e.moves[:0], pos)
	m := game.Pass
	if len(e.moves) > 0 {
		e.scores = append(e.scores[:0], make([]float64, len(e.moves))...)
		if err := e.player.Scores(ctx, g, e.moves, e.scores); err != nil {
			return game.NoPoint, err
		}
		i, err := e.pick(e.scores, len(g.moves) < e.opts.SampleMoves)
		if err != nil {
			return game.NoPoint, err
		}
		m = e.moves[i]
	}
	if err := g.Play(c, m); err != nil {
		return game.NoPoint, fmt.Errorf("gtpengine: generated an illegal move: %w", err)
	}
	return m, nil
}

// pick returns the index of the best score (ties broken at random), or
// with sample a draw from the softmax of the scores.
func (e *Engine) pick(scores []float64, sample bool) (int, error) {
	best := math.Inf(-1)
	for i, s := range scores {
		if math.IsNaN(s) {
			return 0, fmt.Errorf("the %s player scored move %d NaN", e.player.Name(), i)
		}
		best = max(best, s)
	}
	if math.IsInf(best, -1) {
		return e.rng.IntN(len(scores)), nil // every move ruled out: any will do
	}
	if sample {
		e.weights = e.weights[:0]
		for _, s := range scores {
			e.weights = append(e.weights, math.Exp(s-best))
		}
		if i := mcts.DrawWeighted(e.rng, e.weights); i >= 0 {
			return i, nil
		}
	}
	n, pick := 0, 0
	for i, s := range scores {
		if s == best {
			if n++; e.rng.IntN(n) == 0 {
				pick = i
			}
		}
	}
	return pick, nil
}

// newRand returns the engine's generator for a seed.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x677470)) } // "gtp"

// trimFloat formats f with as few digits as round-trip.
func trimFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
