package game

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"lifezero/gtp"
	"lifezero/internal/testdata"
)

// gnugoBinary is where Debian's gnugo package installs GNU Go.
const gnugoBinary = testdata.GNUGoPath

// gnugoPlan says how many random games per board size the reference check
// plays through both engines (a tenth under -short), and how often the
// whole board is listed.
//
// GNU Go writes every listed vertex with two separate write calls, so
// list_stones on a busy 19x19 board costs about half a millisecond. On
// 19x19 the board is therefore listed every tenth move and at the end, and
// every move in between is checked by difference: the colour of the played
// point, the emptiness of every point our rules captured, and both capture
// counts. Since the boards agreed before the move, the same new stone, our
// captured stones gone and the same number of stones captured mean GNU Go
// removed exactly our captured stones: the boards agree after it too.
var gnugoPlan = []gnugoSizePlan{
	{size: 7, games: 1100, listEvery: 1},
	{size: 9, games: 700, listEvery: 1},
	{size: 19, games: 200, listEvery: 10},
}

type gnugoSizePlan struct {
	size, games int
	listEvery   int // list the whole board after every listEvery-th move
}

// gtpCheck is one command of a game's script and the reply our rules
// predict for it.
type gtpCheck struct {
	cmd  string
	want string
	// vertexList marks a list of vertices, compared as a set since GNU Go
	// lists stones in its own order.
	vertexList bool
}

// gnugoStats counts what the games exercised, so the test can insist that
// captures, kos and suicides were actually met.
type gnugoStats struct {
	games, moves, captures, koChecks, suicideChecks, illegalSuicides int
}

func (s *gnugoStats) add(o gnugoStats) {
	s.games += o.games
	s.moves += o.moves
	s.captures += o.captures
	s.koChecks += o.koChecks
	s.suicideChecks += o.suicideChecks
	s.illegalSuicides += o.illegalSuicides
}

// TestRulesAgainstGNUGo plays random games through our rules and GNU Go
// (simple ko for both colours, suicide forbidden, as GNU Go plays) and
// compares, after every move, the whole board and the legality of a sample
// of empty points: the ko point, points without an empty neighbour (where
// suicide and captures decide) and a few random ones.
func TestRulesAgainstGNUGo(t *testing.T) {
	testdata.GNUGo(t) // skips, or fails under CI=true, when GNU Go is missing
	for _, plan := range gnugoPlan {
		n := plan.games
		if testing.Short() {
			n /= 10
		}
		t.Run(fmt.Sprintf("%dx%d", plan.size, plan.size), func(t *testing.T) {
			checkGamesWithGNUGo(t, plan, n)
		})
	}
}

// checkGamesWithGNUGo checks n games of one size, spread over one GNU Go
// process per CPU plus one (each waits on the other side of its pipe part
// of the time).
func checkGamesWithGNUGo(t *testing.T, plan gnugoSizePlan, n int) {
	jobs := make(chan int)
	go func() {
		defer close(jobs)
		for i := 0; i < n; i++ {
			jobs <- i
		}
	}()
	ctx := context.Background()
	var mu sync.Mutex
	var total gnugoStats
	failures := 0
	var wg sync.WaitGroup
	for w := 0; w < runtime.NumCPU()+1; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			eng, err := gtp.Start(ctx, gnugoBinary, "--mode", "gtp")
			if err != nil {
				t.Error(err)
				for range jobs {
				}
				return
			}
			defer eng.Close()
			for i := range jobs {
				seed := uint64(plan.size)<<32 | uint64(i)
				stats, err := checkGameWithGNUGo(ctx, eng, plan, seed)
				mu.Lock()
				total.add(stats)
				if err != nil && failures < 5 {
					failures++
					t.Errorf("game %d (seed %#x): %v", i, seed, err)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	t.Logf("%d games, %d moves, %d stones captured, %d ko points checked, %d suicide candidates checked (%d illegal)",
		total.games, total.moves, total.captures, total.koChecks, total.suicideChecks, total.illegalSuicides)
	if total.games > 0 && (total.captures == 0 || total.koChecks == 0 || total.illegalSuicides == 0) {
		t.Errorf("the random games never met a capture, a ko or an illegal suicide: the check proves little")
	}
}

// checkGameWithGNUGo plays one random game through both engines and
// returns the first disagreement.
func checkGameWithGNUGo(ctx context.Context, eng *gtp.Engine, plan gnugoSizePlan, seed uint64) (gnugoStats, error) {
	script, moves, stats, err := randomGameScript(plan, seed)
	if err != nil {
		return stats, err
	}
	cmds := make([]string, len(script))
	for i, c := range script {
		cmds[i] = c.cmd
	}
	replies, err := eng.Batch(ctx, cmds)
	if err != nil {
		return stats, err
	}
	for i, c := range script {
		r := replies[i]
		got, want := r.Text, c.want
		if c.vertexList {
			got, want = sortedVertices(got), sortedVertices(want)
		}
		if !r.OK || got != want {
			return stats, fmt.Errorf("command %d %q: GNU Go replied ok=%v %q, our rules say %q\nmoves so far: %s",
				i, c.cmd, r.OK, r.Text, c.want, movesBefore(moves, i))
		}
	}
	return stats, nil
}

// scriptMove remembers at which script index a move was sent.
type scriptMove struct {
	index int
	cmd   string
}

func movesBefore(moves []scriptMove, index int) string {
	var out []string
	for _, m := range moves {
		if m.index <= index {
			out = append(out, strings.TrimPrefix(m.cmd, "play "))
		}
	}
	return strings.Join(out, ", ")
}

func sortedVertices(s string) string {
	f := strings.Fields(s)
	slices.Sort(f)
	return strings.Join(f, " ")
}

// randomGameScript plays a random game with our rules and writes the GTP
// script that replays it, each command with the reply our rules predict.
// Moves avoid filling the mover's own eyes except for an occasional
// uniformly random legal move; a player passes now and then; the game ends
// at two passes or 2.5 moves per point.
func randomGameScript(plan gnugoSizePlan, seed uint64) ([]gtpCheck, []scriptMove, gnugoStats, error) {
	size := plan.size
	stats := gnugoStats{games: 1}
	p, err := NewPosition(size)
	if err != nil {
		return nil, nil, stats, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x676e75676f))
	script := []gtpCheck{{cmd: fmt.Sprintf("boardsize %d", size)}, {cmd: "clear_board"}}
	var moves []scriptMove
	cand := make([]Point, 0, MaxCells)
	maxMoves := size * size * 5 / 2
	for n := 0; n < maxMoves && p.Passes() < 2; n++ {
		var m Point
		switch r := rng.Float64(); {
		case r < 0.01:
			m = Pass
		case r < 0.04:
			legal := p.LegalMoves(cand[:0], nil)
			m = Pass
			if len(legal) > 0 {
				m = legal[rng.IntN(len(legal))]
			}
		default:
			m = randomMove(p, rng, cand)
		}
		mover := p.ToMove()
		cmd := fmt.Sprintf("play %s %s", gtpColor(mover), p.GTPString(m))
		before := p.Board
		if err := p.Play(m); err != nil {
			return nil, nil, stats, fmt.Errorf("our rules refused their own legal move %q: %w", cmd, err)
		}
		stats.moves++
		moves = append(moves, scriptMove{len(script), cmd})
		script = append(script, gtpCheck{cmd: cmd})
		if plan.listEvery > 1 {
			script = append(script, moveChecks(p, &before, m, mover)...)
		}
		if stats.moves%plan.listEvery == 0 || p.Passes() >= 2 || n == maxMoves-1 {
			script = append(script, listChecks(p)...)
		}
		script = append(script, legalityChecks(p, rng, &stats)...)
		stats.captures += p.Captured(mover.Opponent()) - before.Captured(mover.Opponent())
	}
	script = append(script, captureChecks(p)...)
	return script, moves, stats, nil
}

// moveChecks checks a move by difference (see gnugoPlan): the new stone,
// the points it captured, and the capture counts.
func moveChecks(p *Position, before *Board, m Point, mover Color) []gtpCheck {
	if m == Pass {
		return nil
	}
	checks := []gtpCheck{{cmd: "color " + p.GTPString(m), want: gtpColor(mover)}}
	for i := 0; i < p.Cells(); i++ {
		q := Point(i)
		if before.At(q) == mover.Opponent() && p.At(q) == Empty {
			checks = append(checks, gtpCheck{cmd: "color " + p.GTPString(q), want: "empty"})
		}
	}
	return append(checks, captureChecks(p)...)
}

// captureChecks compares how many stones each colour has captured.
func captureChecks(p *Position) []gtpCheck {
	return []gtpCheck{
		{cmd: "captures black", want: fmt.Sprint(p.Captured(White))},
		{cmd: "captures white", want: fmt.Sprint(p.Captured(Black))},
	}
}

// listChecks lists the stones of each colour.
func listChecks(p *Position) []gtpCheck {
	var stones [3][]string
	for i := 0; i < p.Cells(); i++ {
		if c := p.At(Point(i)); c == Black || c == White {
			stones[c] = append(stones[c], p.GTPString(Point(i)))
		}
	}
	return []gtpCheck{
		{cmd: "list_stones black", want: strings.Join(stones[Black], " "), vertexList: true},
		{cmd: "list_stones white", want: strings.Join(stones[White], " "), vertexList: true},
	}
}

// legalityChecks asks the legality, for the side to move, of the ko point,
// of up to six empty points without an empty neighbour and of three random
// empty points.
func legalityChecks(p *Position, rng *rand.Rand, stats *gnugoStats) []gtpCheck {
	var empties, crowded []Point
	for i := 0; i < p.Cells(); i++ {
		if q := Point(i); p.At(q) == Empty {
			empties = append(empties, q)
			if !hasEmptyNeighbor(&p.Board, q) {
				crowded = append(crowded, q)
			}
		}
	}
	var checks []gtpCheck
	var sample []Point
	if ko := p.Ko(); ko != NoPoint {
		sample = append(sample, ko)
		stats.koChecks++
	}
	rng.Shuffle(len(crowded), func(i, j int) { crowded[i], crowded[j] = crowded[j], crowded[i] })
	for _, q := range crowded[:min(6, len(crowded))] {
		if q != p.Ko() {
			sample = append(sample, q)
			stats.suicideChecks++
			if !p.IsLegal(q) {
				stats.illegalSuicides++
			}
		}
	}
	for i := 0; i < 3 && len(empties) > 0; i++ {
		sample = append(sample, empties[rng.IntN(len(empties))])
	}
	color := gtpColor(p.ToMove())
	for _, q := range sample {
		want := "0"
		if p.IsLegal(q) {
			want = "1"
		}
		checks = append(checks, gtpCheck{cmd: fmt.Sprintf("is_legal %s %s", color, p.GTPString(q)), want: want})
	}
	return checks
}

func hasEmptyNeighbor(b *Board, q Point) bool {
	for _, n := range b.Neighbors(q) {
		if b.At(n) == Empty {
			return true
		}
	}
	return false
}

func gtpColor(c Color) string {
	if c == Black {
		return "black"
	}
	return "white"
}
