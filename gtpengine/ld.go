package gtpengine

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"lifezero/game"
	"lifezero/rzs"
)

// The life-and-death commands solve the current position with RZS for the
// block at a vertex, as GUIs ask through GoGui's analyze commands (Sabaki
// reads the same list): lz-solve answers in one line, lz-solve-gfx in
// GoGui's gfx language (the winning move as a variation, the relevance
// zone as squares).
const (
	cmdSolve      = "lz-solve"
	cmdSolveGfx   = "lz-solve-gfx"
	defaultBudget = 200000
	// maxRegion bounds the region of a solve: a block that is not walled
	// in by the opponent would make the whole board the region, which no
	// solver proves.
	maxRegion = 220
)

// analyzeCommands is gogui-analyze_commands's reply: type/label/command,
// %p being the point the user clicks.
func (e *Engine) analyzeCommands(context.Context, []string) (string, error) {
	return "string/L&D solve: does the block live (lifezero)/" + cmdSolve + " %p\n" +
		"gfx/L&D solve: winning move and relevance zone (lifezero)/" + cmdSolveGfx + " %p", nil
}

func (e *Engine) solveCmd(ctx context.Context, args []string) (string, error) {
	res, pr, err := e.solveBlock(ctx, args)
	if err != nil {
		return "", err
	}
	return describeSolve(pr, res), nil
}

func (e *Engine) solveGfxCmd(ctx context.Context, args []string) (string, error) {
	res, pr, err := e.solveBlock(ctx, args)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	pos := pr.Start
	if res.FirstMove != game.NoPoint && res.FirstMove != game.Pass {
		fmt.Fprintf(&sb, "VAR %s %s\n", colorLetter(pos.ToMove()), pos.GTPString(res.FirstMove))
	}
	if !res.Zone.Empty() {
		sb.WriteString("SQUARE")
		res.Zone.ForEach(func(p game.Point) { sb.WriteString(" " + pos.GTPString(p)) })
		sb.WriteString("\n")
	}
	sb.WriteString("TEXT " + describeSolve(pr, res))
	return sb.String(), nil
}

// solveBlock solves whether the block at args[0] lives, with the side to
// move playing first, within args[1] nodes (default defaultBudget).
func (e *Engine) solveBlock(ctx context.Context, args []string) (rzs.Result, *game.Problem, error) {
	if len(args) < 1 || len(args) > 2 {
		return rzs.Result{}, nil, errors.New("syntax error: VERTEX [NODES]")
	}
	p, err := e.parseVertex(args[0])
	if err != nil {
		return rzs.Result{}, nil, err
	}
	budget := defaultBudget
	if len(args) == 2 {
		if budget, err = strconv.Atoi(args[1]); err != nil || budget <= 0 {
			return rzs.Result{}, nil, errors.New("syntax error: NODES must be a positive number")
		}
	}
	pr, err := blockProblem(e.game.Position(), p)
	if err != nil {
		return rzs.Result{}, nil, err
	}
	res := rzs.Solve(ctx, pr, rzs.Options{Budget: budget, Evaluator: rzs.LDB(), Table: rzs.NewTreeTable(pr, rzs.TableOptions{})})
	return res, pr, nil
}

// blockProblem turns the position into a "live" problem for the block at
// p: its stones are the crucial stones and their colour the living side,
// which may not win through a ko capture (the problem files'
// disallow_ko), while the killer plays under positional superko. The
// region is what the block can reach without crossing the opponent's
// stones (empty points and its own stones), with the opponent stones
// bordering it, so that it is the area walled in by the opponent.
func blockProblem(pos *game.Position, p game.Point) (*game.Problem, error) {
	living := pos.At(p)
	if living != game.Black && living != game.White {
		return nil, errors.New("no stone at that vertex")
	}
	killer := living.Opponent()
	var region game.PointSet
	stack := []game.Point{p}
	region.Add(p)
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, n := range pos.Neighbors(q) {
			c := pos.At(n)
			if c == game.Border || region.Has(n) {
				continue
			}
			region.Add(n)
			if c != killer {
				stack = append(stack, n)
			}
		}
		if region.Len() > maxRegion {
			return nil, fmt.Errorf("the block is not walled in: its region passes %d points", maxRegion)
		}
	}
	start := pos.Copy()
	start.SetKoRule(living, game.NoKoCapture)
	start.SetKoRule(killer, game.PositionalSuperko)
	pr := &game.Problem{ID: "gtp", Start: start, Crucial: pos.BlockSet(p), Region: region, Winner: game.Empty}
	pr.Goal[living], pr.Goal[killer] = game.GoalLive, game.GoalKill
	return pr, nil
}

// describeSolve says the result in one line.
func describeSolve(pr *game.Problem, res rzs.Result) string {
	pos := pr.Start
	living := pr.Living()
	switch {
	case res.Status == rzs.Unknown:
		return fmt.Sprintf("unknown: not proven in %d nodes", res.Nodes)
	case res.FirstMove == game.Pass:
		return fmt.Sprintf("%s to play fails (%s %s), proven in %d nodes", ColorName(pos.ToMove()), ColorName(living), statusVerb(res.Status), res.Nodes)
	default:
		return fmt.Sprintf("%s %s: %s plays %s, proven in %d nodes", ColorName(living), statusVerb(res.Status),
			ColorName(pos.ToMove()), pos.GTPString(res.FirstMove), res.Nodes)
	}
}

func statusVerb(st rzs.Status) string {
	if st == rzs.Win {
		return "lives"
	}
	return "dies"
}

// ColorName is GTP's long name of a colour ("black", "white"), as
// loadsgf's reply, the L&D answers and match controllers write it.
func ColorName(c game.Color) string {
	if c == game.Black {
		return "black"
	}
	return "white"
}

func colorLetter(c game.Color) string { return ColorName(c)[:1] }
