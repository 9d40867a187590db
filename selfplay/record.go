package selfplay

import (
	"fmt"
	"strconv"

	"lifezero/game"
	"lifezero/sgf"
)

// GameSummary is what a dataset keeps of a game besides its samples.
type GameSummary struct {
	Index     int    `json:"index"`
	Problem   string `json:"problem"`
	Result    string `json:"result"` // the living side's: "win", "fail" or "undecided" (move cap)
	Living    string `json:"living"`
	StartMove int    `json:"start_move"`
	EndMove   int    `json:"end_move"`
	Samples   int    `json:"samples"`
	SGF       string `json:"sgf"`
}

// Outcome returns the game's outcome.
func (s GameSummary) Outcome() (Outcome, error) {
	living, err := game.ParseColor(s.Living)
	if err != nil {
		return Outcome{}, fmt.Errorf("game %d: living side: %w", s.Index, err)
	}
	o := Outcome{Living: living, EndMove: s.EndMove}
	switch s.Result {
	case game.LivingWins.String():
		o.Result = game.LivingWins
	case game.LivingFails.String():
		o.Result = game.LivingFails
	case game.Undecided.String():
		o.Result = game.Undecided
	default:
		return Outcome{}, fmt.Errorf("game %d: unknown result %q", s.Index, s.Result)
	}
	return o, nil
}

// summary describes a finished game; dw is the d_w it was played under.
func (g *Game) summary(dw int) GameSummary {
	pr := g.Start.Problem
	return GameSummary{
		Index: g.Index, Problem: pr.ID, Result: g.Outcome.Result.String(), Living: pr.Living().String(),
		StartMove: pr.Start.MoveNumber(), EndMove: g.Outcome.EndMove, Samples: len(g.samples),
		SGF: sgf.Collection{g.SGF(dw)}.String(),
	}
}

// SGF returns the game as an SGF game tree: the start position as setup
// stones (none for kill-all), then the moves, passes as B[] or W[]. KM holds
// the d_w the game was played under (the problem files' ftl_d convention),
// RE the winner: the living side if it lived, else the killer.
func (g *Game) SGF(dw int) *sgf.Node {
	pr := g.Start.Problem
	pos := pr.StartPosition()
	root := game.NewSGFRoot(pos.Size())
	root.Add("GN", fmt.Sprintf("selfplay %d (%s)", g.Index, pr.ID))
	root.Add("KM", strconv.Itoa(dw))
	if game.AddSGFSetup(root, &pos.Board) {
		root.Add("PL", pos.ToMove().String())
	}
	winner := pr.Living()
	if g.Outcome.Result != game.LivingWins {
		winner = pr.Killer()
	}
	root.Add("RE", winner.String()+"+")
	root.Add("C", fmt.Sprintf("%v lives (%v), %v kills (%v); %v at move %d; d_w %d",
		pr.Living(), pr.Goal[pr.Living()], pr.Killer(), pr.Goal[pr.Killer()], g.Outcome.Result, g.Outcome.EndMove, dw))
	cur := root
	for _, m := range g.Moves {
		n := &sgf.Node{}
		n.Add(pos.ToMove().String(), pos.SGFMove(m))
		if err := pos.Play(m); err != nil { // recorded moves were played: cannot happen
			n.Add("C", "illegal: "+err.Error())
		}
		cur.Children = []*sgf.Node{n}
		cur = n
	}
	return root
}
