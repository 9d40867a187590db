package rzs

import (
	"context"
	"errors"
	"os"
	"testing"

	"lifezero/game"
)

// exhaustive is the reference without a table: it searches every line
// with its own history, so superko is applied exactly, and records the
// results it finds for each table key (position hash and standing
// crucial stones) under the histories it reaches the key with.
type exhaustive struct {
	pr       *game.Problem
	nodes    int
	maxNodes int
	// seen has bit 1<<Win and/or 1<<Loss for each undecided key reached:
	// both bits mean the same key has different results under different
	// histories, which only superko can cause.
	seen map[uint64]uint8
	// barred counts moves barred by positional superko alone.
	barred int
}

var errExhaustiveBudget = errors.New("exhaustive search over its node limit")

func newExhaustive(pr *game.Problem, maxNodes int) *exhaustive {
	return &exhaustive{pr: pr, maxNodes: maxNodes, seen: map[uint64]uint8{}}
}

func (e *exhaustive) solve(pos *game.Position, standing game.PointSet) (Status, error) {
	if e.nodes++; e.nodes > e.maxNodes {
		return Unknown, errExhaustiveBudget
	}
	switch e.pr.Judge(pos, &standing).Outcome {
	case game.LivingWins:
		return Win, nil
	case game.LivingFails:
		return Loss, nil
	}
	or := pos.ToMove() == e.pr.Living()
	moves, barred := pos.LegalMovesSuperko(nil, &e.pr.Region)
	e.barred += barred
	result := Loss // the living side without a move fails
	if !or {
		moves = append(moves, game.Pass) // the killer may pass, the living side never
		result = Win
	}
	for _, m := range moves {
		next := pos.Copy()
		if err := next.Play(m); err != nil {
			return Unknown, err
		}
		st, err := e.solve(next, e.pr.Standing(next, &standing))
		if err != nil {
			return Unknown, err
		}
		if (or && st == Win) || (!or && st == Loss) {
			result = st
			break
		}
	}
	e.seen[ttKey(pos, &standing)] |= 1 << result
	return result, nil
}

// conflicts counts the keys reached with different results.
func (e *exhaustive) conflicts() int {
	n := 0
	for _, b := range e.seen {
		if b == 1<<Win|1<<Loss {
			n++
		}
	}
	return n
}

// Positions where superko decides: in each, some position (the same
// stones, side to move, ko point and standing crucial stones, so the same
// table key) is reached along different lines and is won along one and
// lost along another, because positional superko bars a move along one
// line only. A table that reused such a result on another line would be
// wrong there. They come from a scan of random 5x5 and 6x6 positions
// with at most 8 empty points in the region, kept when the exhaustive
// search found such keys (the comment gives their number).
var superkoFixtures = []struct {
	name string
	f    fixture
}{
	{"904-win-14keys", fixture{game.White, []string{"...xo", "X.Ooo", "O..Xx", "x,OOx", ",,x,o"}}},
	{"1846-loss-10keys", fixture{game.Black, []string{"x,o,@@", ",o..XX", ",oo.O.", ",,.XXO", ",oOox.", "x,,,x,"}}},
	{"581-loss-8keys", fixture{game.Black, []string{"X.X..", "X@@.X", "x&XXX", "&&&XX", ",,xo,"}}},
	{"124-win-6keys", fixture{game.White, []string{"oox,ox", ",,ooxx", "x,o.x,", ",X.OXX", "oo..OX", ",o...."}}},
	{"144-win-6keys", fixture{game.Black, []string{"oOO.O", "ooX..", "o,.OX", "ooX..", "x.@,o"}}},
	{"1649-win-5keys", fixture{game.White, []string{".o,,o", "XOox,", "x.Oxo", "O.XOo", "OOXo,"}}},
	{"340-win-5keys", fixture{game.White, []string{"..Xox,", "O.O,oo", "xOX@.o", ",O,&xo", ".XOxxx", "xxo,ox"}}},
	{"384-loss-4keys", fixture{game.White, []string{".XOx,", ".X.O,", ".X.OX", "xOOOo", "x,oo,"}}},
	{"1610-win-4keys", fixture{game.White, []string{"..XO.x", "O.O.ox", "..,Ox,", "Oxx,,,", "Xxo,xx", ",xx,,,"}}},
	{"1883-loss-4keys", fixture{game.Black, []string{"O..@Xx", "...@,,", ".OX@,,", ".Xxx,x", "xxx,x,", "xxoox,"}}},
	{"498-loss-1532barred", fixture{game.Black, []string{"xo.oo", "x.Ooo", "XOXOo", "XXXO.", "..oo,"}}},
	{"1508-win-2keys", fixture{game.Black, []string{".OX.@", "xxOO.", "xxoX.", "xoOOo", "xxX.o"}}},
}

// TestSuperkoTableAgreesWithExhaustive: on positions where superko
// decides, every form of the solver with its transposition table proves
// what the exhaustive search without a table says, as do the table-less
// MCTS form and the memoising reference; and no table entry the MCTS and
// depth-first forms (or the reference's memo) keep contradicts a result
// the exhaustive search found for its key along any line: an entry is
// reused whatever the line, so it must hold on every line.
//
// Every form's table does keep such entries today (graph history
// interaction: a proof found on a line on which none of its moves was
// barred counts as independent of the history, and is reused on a line
// that passed through a position the proof comes back to, where one of
// its moves is barred): the depth-first form and the reference's memo
// with their own move orders, the MCTS form with noise priors and no
// zones. No root result here is wrong for it, so the test counts them
// and logs them; LIFEZERO_STRICT_SUPERKO=1 makes them fail, for the work
// that closes the gap.
func TestSuperkoTableAgreesWithExhaustive(t *testing.T) {
	gaps := map[string]int{}
	mctsShared := 0
	defer func() {
		t.Logf("MCTS table entries checked against every line: %d; entries contradicted on another line: %v", mctsShared, gaps)
		if mctsShared == 0 {
			t.Errorf("the MCTS form's tables held no entry the exhaustive search reached: nothing checked")
		}
		for form, n := range gaps {
			if n > 0 && os.Getenv("LIFEZERO_STRICT_SUPERKO") != "" {
				t.Errorf("%s: %d table entries contradicted on another line: results that rest on the history were kept", form, n)
			}
		}
	}()
	for _, c := range superkoFixtures {
		t.Run(c.name, func(t *testing.T) {
			pr := c.f.problem(t)
			ex := newExhaustive(pr, 500_000)
			want, err := ex.solve(pr.StartPosition(), pr.Crucial)
			if err != nil {
				t.Fatal(err)
			}
			if ex.conflicts() == 0 {
				t.Fatalf("no key with different results on different lines (%d moves barred by superko): the fixture tests nothing", ex.barred)
			}
			// contradicted counts the entries of a table that some line's
			// exhaustive result contradicts.
			// It also counts in shared the entries whose keys the
			// exhaustive search reached, which the check reads.
			shared := 0
			contradicted := func(entries map[uint64]Status) int {
				n := 0
				for key, st := range entries {
					b := ex.seen[key]
					if b != 0 {
						shared++
					}
					if b != 0 && b != 1<<st {
						n++
					}
				}
				return n
			}
			for _, f := range []struct {
				name string
				opts Options
			}{
				{"mcts", Options{}},
				{"mcts-ldb", Options{Evaluator: LDB()}},
				{"mcts-norz", Options{NoRZ: true}},
				{"mcts-batch8", Options{Batch: 8}},
				{"mcts-nott", Options{NoTT: true}},
				{"mcts-noise-norz", Options{NoRZ: true, Evaluator: Learned{Base: Uniform{}, Ranker: noiseRanker{}, Weight: 3}}},
			} {
				opts := f.opts
				opts.Budget = 200_000
				opts.defaults(pr)
				s := newMCTSSolver(pr, opts)
				res := s.run(context.Background())
				if res.Status != want {
					t.Fatalf("%s: %v in %d nodes, the exhaustive search %v", f.name, res.Status, res.Nodes, want)
				}
				if s.tt != nil {
					shared = 0
					entries := map[uint64]Status{}
					for k, e := range s.tt.entries {
						entries[k] = e.status
					}
					gaps[f.name] += contradicted(entries)
					mctsShared += shared
				}
			}
			for _, f := range []struct {
				name string
				opts Options
			}{{"dfs", Options{}}, {"dfs-norz", Options{NoRZ: true}}} {
				opts := f.opts
				opts.Budget = 200_000
				opts.defaults(pr)
				d := newDFSSolver(context.Background(), pr, opts)
				st, _, _, err := d.search(pr.StartPosition(), pr.Crucial, 0)
				if err != nil || st != want {
					t.Fatalf("%s: %v (%v) in %d nodes, the exhaustive search %v", f.name, st, err, d.nodes, want)
				}
				entries := map[uint64]Status{}
				for k, e := range d.tt.entries {
					entries[k] = e.status
				}
				gaps[f.name] += contradicted(entries)
			}
			if res := SolveDFPN(context.Background(), pr, Options{Budget: 200_000}); res.Status != want {
				t.Fatalf("dfpn: %v in %d nodes, the exhaustive search %v", res.Status, res.Nodes, want)
			}
			ref := NewReference(pr, 200_000)
			if st, err := ref.Solve(pr.StartPosition(), pr.Crucial); err != nil || st != want {
				t.Fatalf("reference: %v (%v), the exhaustive search %v", st, err, want)
			}
			gaps["reference"] += contradicted(ref.memo)
			t.Logf("%v in %d exhaustive nodes; %d keys with both results, %d superko bars", want, ex.nodes, ex.conflicts(), ex.barred)
		})
	}
}

func seenString(b uint8) string {
	switch b {
	case 1 << Win:
		return "won"
	case 1 << Loss:
		return "lost"
	}
	return "won on one line and lost on another"
}
