package evaluate

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"lifezero/game"
	"lifezero/gtp"
	"lifezero/gtpengine"
)

// GNU Go's owl as a baseline on the L&D problems: its owl code reads a
// dragon's life heuristically (no proof), so it is the reference point the
// solver's proven results are set against.

// OwlResultsKind is the dataset kind of the owl stage (owl.json).
const OwlResultsKind = "owl-results"

// DefaultGNUGo is where Debian installs GNU Go.
const DefaultGNUGo = "/usr/games/gnugo"

// OwlConfig says which GNU Go reads the problems and how hard.
type OwlConfig struct {
	GNUGo string // the binary; "" is DefaultGNUGo
	Level int    // --level, 1..10 (owl's node limits grow with it)
}

// OwlRow is GNU Go's owl verdict on one problem. Verdict is from the living
// side's view, as SolveRow.Result: win or loss (owl always answers).
type OwlRow struct {
	ID      string  `json:"id"`
	Set     string  `json:"set"`
	ToPlay  string  `json:"to_play"`
	Living  string  `json:"living"`
	Winner  string  `json:"winner"`  // the file's winner, "" when it gives none
	Command string  `json:"command"` // owl_defend (living side to play) or owl_attack
	Stones  string  `json:"stones"`  // the GTP vertices asked about
	Codes   string  `json:"codes"`   // owl's result code per stone: 0 fails, 1 succeeds, 2/3 through ko
	Verdict string  `json:"verdict"` // ResultWin or ResultLoss
	Move    string  `json:"move"`    // owl's first move for the side to play when it succeeds (SGF point), else ""
	Answer  string  `json:"answer"`  // the book's first move (SGF point, PassMove or "")
	Seconds float64 `json:"seconds"`
}

// Agrees reports whether the verdict matches the file's winner; known is
// false when the file names none.
func (r *OwlRow) Agrees() (agrees, known bool) {
	if r.Winner == "" {
		return false, false
	}
	return (r.Verdict == ResultWin) == (r.Winner == r.Living), true
}

// OwlProblems asks one GNU Go (over GTP) about every task in turn and calls
// emit with each verdict. The side to play moves first: owl_defend on the
// living side's crucial stones (every block of the living side when the
// goal names none, as in 7x7 kill-all) when it is the living side's turn,
// owl_attack otherwise. The living side wins if a defence of one of them
// succeeds, or if an attack on one of them fails. A ko result (codes 2 and
// 3) counts as success only for a side that may win through ko.
func OwlProblems(ctx context.Context, tasks []SolveTask, cfg OwlConfig, emit func(OwlRow) error) error {
	bin := cfg.GNUGo
	if bin == "" {
		bin = DefaultGNUGo
	}
	if cfg.Level < 1 || cfg.Level > 10 {
		return fmt.Errorf("evaluate: owl: level %d: want 1..10", cfg.Level)
	}
	eng, err := gtp.Start(ctx, bin, "--mode", "gtp", "--level", strconv.Itoa(cfg.Level))
	if err != nil {
		return fmt.Errorf("evaluate: owl: %w", err)
	}
	defer eng.Close()
	for _, t := range tasks {
		if err := ctx.Err(); err != nil {
			return err
		}
		row, err := owlOne(ctx, eng, t)
		if err != nil {
			return fmt.Errorf("evaluate: owl: problem %s (%s): %w", t.Problem.ID, t.Problem.Source, err)
		}
		if err := emit(row); err != nil {
			return err
		}
	}
	return nil
}

// owlOne sets the problem's position up in GNU Go and asks owl about it.
func owlOne(ctx context.Context, eng *gtp.Engine, t SolveTask) (OwlRow, error) {
	pr, pos := t.Problem, t.Problem.Start
	living, toPlay := pr.Living(), pos.ToMove()
	row := OwlRow{ID: pr.ID, Set: t.Set, ToPlay: toPlay.String(), Living: living.String(), Answer: moveString(pos, pr.Answer),
		Command: "owl_attack"}
	if pr.Winner == game.Black || pr.Winner == game.White {
		row.Winner = pr.Winner.String()
	}
	if toPlay == living {
		row.Command = "owl_defend"
	}
	targets := owlTargets(pr)
	if len(targets) == 0 {
		return row, fmt.Errorf("the living side has no stone to ask owl about")
	}
	if err := owlSetup(ctx, eng, pos); err != nil {
		return row, err
	}
	start := time.Now()
	succeeded, err := owlAsk(ctx, eng, pos, targets, &row)
	if err != nil {
		return row, err
	}
	row.Seconds = time.Since(start).Seconds()
	if !succeeded {
		row.Move = ""
	}
	if (row.Command == "owl_defend") == succeeded {
		row.Verdict = ResultWin
	} else {
		row.Verdict = ResultLoss
	}
	return row, nil
}

// owlSetup places pos's stones on GNU Go's empty board. Stones placed one
// by one never capture: every block of the final position has a liberty,
// and so has each of its parts before.
func owlSetup(ctx context.Context, eng *gtp.Engine, pos *game.Position) error {
	cmds := []string{"boardsize " + strconv.Itoa(pos.Size()), "clear_board", "komi 0"}
	for i := 0; i < pos.Cells(); i++ {
		switch c := pos.At(game.Point(i)); c {
		case game.Black, game.White:
			cmds = append(cmds, "play "+gtpengine.ColorName(c)+" "+pos.GTPString(game.Point(i)))
		}
	}
	replies, err := eng.Batch(ctx, cmds)
	if err != nil {
		return err
	}
	for i, r := range replies {
		if err := r.Err(cmds[i]); err != nil {
			return err
		}
	}
	return nil
}

// owlAsk sends row.Command about each target in turn and reports whether
// the side to play succeeds: a defence needs one target to live, an attack
// must kill them all. It records the stones, codes and first move in row.
func owlAsk(ctx context.Context, eng *gtp.Engine, pos *game.Position, targets []game.Point, row *OwlRow) (bool, error) {
	mover := pos.KoRule(pos.ToMove()) != game.NoKoCapture // the side to play may win through ko
	defend := row.Command == "owl_defend"
	succeeded := false
	var stones, codes []string
	defer func() { row.Stones, row.Codes = strings.Join(stones, " "), strings.Join(codes, " ") }()
	for _, p := range targets {
		v := pos.GTPString(p)
		reply, err := eng.Command(ctx, row.Command+" "+v)
		if err != nil {
			return false, err
		}
		code, move, err := parseOwlReply(reply)
		if err != nil {
			return false, fmt.Errorf("%s %s: %w", row.Command, v, err)
		}
		stones, codes = append(stones, v), append(codes, strconv.Itoa(code))
		ok := code == 1 || (code >= 2 && mover)
		switch {
		case defend && ok:
			row.Move = owlMoveSGF(pos, move)
			return true, nil // one living crucial stone is enough
		case !defend && !ok:
			return false, nil // this one survives: the living side wins
		case !defend:
			succeeded = true
			if row.Move == "" {
				row.Move = owlMoveSGF(pos, move)
			}
		}
	}
	return succeeded, nil
}

// owlTargets are the standing crucial stones, or one stone of each block
// of the living side when the goal names none.
func owlTargets(pr *game.Problem) []game.Point {
	pos, living := pr.Start, pr.Living()
	var out []game.Point
	seen := map[game.Point]bool{}
	add := func(p game.Point) {
		if pos.At(p) != living || seen[pos.BlockHead(p)] {
			return
		}
		seen[pos.BlockHead(p)] = true
		out = append(out, p)
	}
	if !pr.Crucial.Empty() {
		pr.Crucial.ForEach(add)
		return out
	}
	for i := 0; i < pos.Cells(); i++ {
		add(game.Point(i))
	}
	return out
}

// parseOwlReply reads "0" or "CODE MOVE".
func parseOwlReply(s string) (code int, move string, err error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return 0, "", fmt.Errorf("empty reply")
	}
	code, err = strconv.Atoi(f[0])
	if err != nil || code < 0 || code > 3 {
		return 0, "", fmt.Errorf("reply %q: want a result code 0..3", s)
	}
	if len(f) > 1 {
		move = f[1]
	}
	return code, move, nil
}

// owlMoveSGF turns owl's GTP move into an SGF point ("" when it gives none
// or one that does not parse, PassMove for a pass).
func owlMoveSGF(pos *game.Position, v string) string {
	if strings.EqualFold(v, "pass") {
		return PassMove
	}
	p, err := pos.ParseGTP(v)
	if err != nil {
		return ""
	}
	return pos.PointString(p)
}
