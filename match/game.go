package match

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"lifezero/game"
	"lifezero/gtp"
	"lifezero/gtpengine"
	"lifezero/sgf"
)

// Ways a game ends.
const (
	EndPasses  = "passes"
	EndResign  = "resign"
	EndMoveCap = "move cap"
	EndIllegal = "illegal move"
)

// playGame plays game n between two started engines and writes its SGF.
func playGame(ctx context.Context, o *Options, n int, black, white *engine) (*Result, error) {
	setup := []string{fmt.Sprintf("boardsize %d", o.Size), "clear_board", "komi " + strconv.FormatFloat(o.Komi, 'f', -1, 64)}
	seed := fmt.Sprintf("set_random_seed %d", o.Seed*1000003+uint64(n))
	for _, e := range []*engine{black, white} {
		cmds := setup
		if e.seedable {
			cmds = append(cmds[:len(cmds):len(cmds)], seed)
		}
		for _, c := range cmds {
			if _, err := e.Command(ctx, c); err != nil {
				return nil, fmt.Errorf("engine %q: %w", e.cmdline, err)
			}
		}
	}
	ref, err := gtpengine.NewGame(o.Size, o.Komi)
	if err != nil {
		return nil, err
	}
	if o.Handicap >= 2 {
		if err := placeHandicap(ctx, o.Handicap, ref, black, white); err != nil {
			return nil, err
		}
	}
	res := &Result{Game: n, Black: black.name, White: white.name, SGF: gameName(n) + ".sgf"}
	var loser game.Color // set when a side resigns or forfeits
	comment := ""
	for res.End == "" {
		pos := ref.Position()
		if len(ref.Moves()) >= o.MaxMoves {
			res.End = EndMoveCap
			break
		}
		c := pos.ToMove()
		mover, other := black, white
		if c == game.White {
			mover, other = white, black
		}
		word := gtpengine.ColorName(c)
		reply, err := mover.Command(ctx, "genmove "+word)
		var ge *gtp.Error
		switch {
		case errors.As(err, &ge):
			res.End, loser, comment = EndIllegal, c, fmt.Sprintf("%v's engine failed to move: %s", c, ge.Message)
			continue
		case err != nil:
			return nil, fmt.Errorf("engine %q: %w", mover.cmdline, err)
		case strings.EqualFold(reply, "resign"):
			res.End, loser = EndResign, c
			continue
		}
		m, err := pos.ParseGTP(reply)
		if err == nil {
			err = ref.Play(c, m)
		}
		if err != nil {
			res.End, loser, comment = EndIllegal, c, fmt.Sprintf("%v played %q: %v", c, reply, err)
			continue
		}
		if _, err := other.Command(ctx, "play "+word+" "+reply); err != nil {
			if !errors.As(err, &ge) {
				return nil, fmt.Errorf("engine %q: %w", other.cmdline, err)
			}
			res.End, loser, comment = EndIllegal, c, fmt.Sprintf("%v played %s, which the other engine refused: %s", c, reply, ge.Message)
			continue
		}
		if ref.Position().Passes() >= 2 {
			res.End = EndPasses
		}
	}
	res.Moves = len(ref.Moves())
	if loser != game.Empty {
		res.Winner = loser.Opponent().String()
		res.RE = res.Winner + "+R"
		if res.End == EndIllegal {
			res.RE = res.Winner + "+F"
		}
	} else if err := score(ctx, o, ref, black, white, res); err != nil {
		return nil, err
	}
	if comment == "" {
		comment = "ended by " + res.End
	}
	root := record(o, ref, res, comment)
	if err := (sgf.Collection{root}).WriteFile(filepath.Join(o.OutDir, "games", res.SGF)); err != nil {
		return nil, err
	}
	return res, nil
}

// placeHandicap asks Black's engine for fixed handicap stones and tells
// White's engine and the referee where they are.
func placeHandicap(ctx context.Context, n int, ref *gtpengine.Game, black, white *engine) error {
	reply, err := black.Command(ctx, fmt.Sprintf("fixed_handicap %d", n))
	if err != nil {
		return fmt.Errorf("engine %q: %w", black.cmdline, err)
	}
	var pts []game.Point
	for _, v := range strings.Fields(reply) {
		p, err := ref.Position().ParseGTP(v)
		if err != nil || p == game.Pass {
			return fmt.Errorf("engine %q placed handicap stones %q: %v", black.cmdline, reply, err)
		}
		pts = append(pts, p)
	}
	if err := ref.Setup(game.Black, pts); err != nil {
		return fmt.Errorf("handicap stones %q: %w", reply, err)
	}
	if _, err := white.Command(ctx, "set_free_handicap "+reply); err != nil {
		return fmt.Errorf("engine %q: %w", white.cmdline, err)
	}
	return nil
}

// score fills in the score of a game that ended by passes or the move cap:
// GNU Go's final_score when one of the engines is GNU Go, else the area
// score of the referee's board.
func score(ctx context.Context, o *Options, ref *gtpengine.Game, black, white *engine, res *Result) error {
	var scorer *engine
	for _, e := range []*engine{black, white} {
		if e.gnugo && scorer == nil {
			scorer = e
		}
	}
	if scorer != nil {
		reply, err := scorer.Command(ctx, "final_score")
		if err != nil {
			return fmt.Errorf("engine %q: %w", scorer.cmdline, err)
		}
		s, err := ParseScore(reply)
		if err != nil {
			return fmt.Errorf("engine %q: final_score: %w", scorer.cmdline, err)
		}
		res.Score, res.ScoredBy = s, "gnugo"
	} else {
		res.Score, res.ScoredBy = gtpengine.AreaScore(ref.Position(), o.Komi), "area"
	}
	res.RE = gtpengine.FormatScore(res.Score)
	switch {
	case res.Score > 0:
		res.Winner = "B"
	case res.Score < 0:
		res.Winner = "W"
	}
	return nil
}

// ParseScore reads a GTP final_score reply ("B+3.5", "W+0.5", "0") as
// Black's lead.
func ParseScore(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if s == "0" {
		return 0, nil
	}
	if len(s) < 3 || s[1] != '+' {
		return 0, fmt.Errorf("score %q: want B+N, W+N or 0", s)
	}
	v, err := strconv.ParseFloat(s[2:], 64)
	if err != nil {
		return 0, fmt.Errorf("score %q: want B+N, W+N or 0", s)
	}
	switch s[0] {
	case 'B', 'b':
		return v, nil
	case 'W', 'w':
		return -v, nil
	}
	return 0, fmt.Errorf("score %q: want B+N, W+N or 0", s)
}

// record returns the SGF game tree of a finished game.
func record(o *Options, ref *gtpengine.Game, res *Result, comment string) *sgf.Node {
	pos := ref.Start()
	root := game.NewSGFRoot(o.Size)
	for _, p := range [][2]string{{"KM", strconv.FormatFloat(o.Komi, 'f', -1, 64)},
		{"GN", fmt.Sprintf("match game %d", res.Game)}, {"PB", res.Black}, {"PW", res.White}, {"RE", res.RE}, {"C", comment}} {
		root.Add(p[0], p[1])
	}
	if o.Handicap >= 2 {
		root.Add("HA", strconv.Itoa(o.Handicap))
		game.AddSGFSetup(root, &pos.Board) // the handicap stones: AB
	}
	cur := root
	for _, m := range ref.Moves() {
		n := &sgf.Node{}
		n.Add(m.Color.String(), pos.SGFMove(m.Point))
		cur.Children = []*sgf.Node{n}
		cur = n
	}
	return root
}
