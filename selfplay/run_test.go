package selfplay

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lifezero/datasets"
	"lifezero/game"
	"lifezero/internal/testdata"
	"lifezero/nn"
	"lifezero/sgf"
)

// sharedData returns <repo root>/../shared/data/<rel>, or skips the test.
func sharedData(t *testing.T, rel string) string { return testdata.Path(t, rel) }

func testConfig(t *testing.T, board int) nn.Config {
	t.Helper()
	c, err := nn.Preset(nn.Preset2x16, board)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func killAllOptions(t *testing.T, games int) Options {
	t.Helper()
	ka, err := KillAll(7)
	if err != nil {
		t.Fatal(err)
	}
	o := DefaultOptions()
	o.Starts = []Start{ka}
	o.Config = testConfig(t, 7)
	o.Games = games
	o.Simulations = 12
	o.DW = 40
	o.GamesPerFile = 2
	o.Workers = 2
	o.Seed = 7
	return o
}

// replay plays an SGF game record from the start of pr, checking every move
// is legal under the problem's rules, and returns the final position.
func replay(t *testing.T, start Start, text string) (*game.Position, *sgf.Node) {
	t.Helper()
	coll, err := sgf.ParseString(text)
	if err != nil || len(coll) != 1 {
		t.Fatalf("game record does not parse: %v (%d games)", err, len(coll))
	}
	pr := start.Problem
	pos := pr.StartPosition()
	for i, n := range coll[0].MainLine()[1:] {
		var c game.Color
		var v string
		if b, ok := n.Get("B"); ok {
			c, v = game.Black, b
		} else if w, ok := n.Get("W"); ok {
			c, v = game.White, w
		} else {
			t.Fatalf("node %d has no move", i+1)
		}
		if c != pos.ToMove() {
			t.Fatalf("move %d is %v's, but %v is to play", i+1, c, pos.ToMove())
		}
		m, err := pos.ParsePoint(v)
		if err != nil {
			t.Fatalf("move %d: %v", i+1, err)
		}
		if m != game.Pass && !pr.Region.Has(m) {
			t.Fatalf("move %d %s is outside the region", i+1, v)
		}
		if m == game.Pass && c == pr.Living() && !start.forcedPass(pos) && len(pos.LegalMoves(nil, &pr.Region)) > 0 {
			t.Fatalf("move %d: the living side passed with legal moves left", i+1)
		}
		if err := pos.Play(m); err != nil {
			t.Fatalf("move %d: %v", i+1, err)
		}
	}
	return pos, coll[0]
}

func TestKillAllGames(t *testing.T) {
	for _, leaves := range []int{1, 4} {
		for _, reuse := range []bool{false, true} {
			t.Run(fmt.Sprintf("leaves=%d/reuse=%v", leaves, reuse), func(t *testing.T) {
				opts := killAllOptions(t, 4)
				opts.LeavesPerGame = leaves
				opts.ReuseTree = reuse
				checkKillAllGames(t, opts)
			})
		}
	}
}

func checkKillAllGames(t *testing.T, opts Options) {
	dir := t.TempDir()
	res, err := Run(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Games) != 4 || res.Summary.Games != 4 {
		t.Fatalf("%d games, summary %d, want 4", len(res.Games), res.Summary.Games)
	}
	start := opts.Starts[0]
	for _, g := range res.Games {
		pos, root := replay(t, start, g.SGF)
		if pos.MoveNumber() != g.EndMove {
			t.Errorf("game %d: %d moves replayed, end move %d", g.Index, pos.MoveNumber(), g.EndMove)
		}
		line := root.MainLine()
		if b, _ := line[1].Get("B"); b == "" {
			t.Errorf("game %d: Black's first move is %q", g.Index, b)
		}
		if w, ok := line[2].Get("W"); !ok || w != "" {
			t.Errorf("game %d: White's first move should be the opening pass", g.Index)
		}
		if b, _ := line[3].Get("B"); b == "" {
			t.Errorf("game %d: Black's second opening stone is %q", g.Index, b)
		}
		// The recorded result is what the rules say about the final
		// position, and nothing was decided earlier.
		standing := start.Problem.Crucial
		got := start.Problem.Judge(pos, &standing).Outcome
		switch g.Result {
		case "win", "fail":
			if got.String() != g.Result {
				t.Errorf("game %d: recorded %s, the final position judges %v", g.Index, g.Result, got)
			}
		case "undecided":
			if got != game.Undecided || g.EndMove != 2*49 {
				t.Errorf("game %d: stopped undecided at move %d, judged %v", g.Index, g.EndMove, got)
			}
		}
		re, _ := root.Get("RE")
		if (g.Result == "win") != (re == "W+") {
			t.Errorf("game %d: RE[%s] for result %s", g.Index, re, g.Result)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, GamesFileName))
	if err != nil {
		t.Fatal(err)
	}
	if coll, err := sgf.ParseString(string(data)); err != nil || len(coll) != 4 {
		t.Fatalf("%s: %d games, err %v; want 4", GamesFileName, len(coll), err)
	}
}

func TestProblemGames(t *testing.T) {
	dir := sharedData(t, "problems/cho19-dev")
	var problems []*game.Problem
	for _, id := range []string{"001", "005"} {
		pr, err := game.LoadProblem(filepath.Join(dir, id+".json"))
		if err != nil {
			t.Fatal(err)
		}
		problems = append(problems, pr)
	}
	starts, err := ProblemStarts(problems)
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultOptions()
	opts.Starts = starts
	opts.Config = testConfig(t, 19)
	opts.Games, opts.Simulations, opts.DW, opts.GamesPerFile, opts.Workers, opts.Seed = 4, 8, 10, 4, 1, 3
	res, err := Run(context.Background(), t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range res.Games {
		start := starts[g.Index%len(starts)]
		if g.Problem != start.Problem.ID {
			t.Fatalf("game %d played %s, want %s", g.Index, g.Problem, start.Problem.ID)
		}
		pos, _ := replay(t, start, g.SGF)
		standing := start.Problem.Crucial
		// Standing crucial stones as the game went: replay once more.
		p := start.Problem.StartPosition()
		coll, _ := sgf.ParseString(g.SGF)
		for _, n := range coll[0].MainLine()[1:] {
			v, ok := n.Get("B")
			if !ok {
				v, _ = n.Get("W")
			}
			m, _ := p.ParsePoint(v)
			p.Play(m)
			standing = start.Problem.Standing(p, &standing)
		}
		got := start.Problem.Judge(pos, &standing).Outcome
		if g.Result != "undecided" && got.String() != g.Result {
			t.Errorf("game %d (%s): recorded %s, judged %v", g.Index, g.Problem, g.Result, got)
		}
	}
}

// cancelAfter cancels a context once n games have finished.
type cancelAfter struct {
	n, done int
	cancel  context.CancelFunc
}

func (c *cancelAfter) Start(int, string) {}
func (c *cancelAfter) Finish()           {}
func (c *cancelAfter) Add(n int) {
	c.done += n
	if c.done >= c.n {
		c.cancel()
	}
}

func TestRunResumes(t *testing.T) {
	opts := killAllOptions(t, 4)
	opts.Workers = 1
	whole, err := Run(context.Background(), t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	killed := opts
	killed.Progress = &cancelAfter{n: 3, cancel: cancel} // stops inside the second chunk
	if _, err := Run(ctx, dir, killed); err == nil {
		t.Fatal("a cancelled run returned no error")
	}
	if _, err := os.Stat(filepath.Join(dir, chunkName(0))); err != nil {
		t.Fatalf("the first chunk was not kept: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, chunkName(1))); err == nil {
		t.Fatal("the interrupted chunk was written")
	}
	resumed, err := Run(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Summary.Resumed != 2 {
		t.Errorf("resumed %d games, want 2", resumed.Summary.Resumed)
	}
	// Games depend on the seed and their index alone.
	for i := range whole.Games {
		if whole.Games[i].SGF != resumed.Games[i].SGF {
			t.Errorf("game %d differs after resuming:\n%s\n%s", i, whole.Games[i].SGF, resumed.Games[i].SGF)
		}
	}
	// Other options do not resume that work.
	other := opts
	other.Seed++
	res, err := Run(context.Background(), dir, other)
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary.Resumed != 0 {
		t.Errorf("a run with another seed resumed %d games", res.Summary.Resumed)
	}
}

func TestSamplesRoundTrip(t *testing.T) {
	opts := killAllOptions(t, 4)
	dir := t.TempDir()
	res, err := Run(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	m, err := res.Manifest(datasets.Manifest{Stage: "test", InputHash: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if err := datasets.WriteManifest(dir, &m); err != nil {
		t.Fatal(err)
	}
	s, got, err := ReadSamples(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if got.Meta[MetaDW] != "40" || got.Meta[MetaNextDW] == "" {
		t.Errorf("meta %v: want dw 40 and next_dw", got.Meta)
	}
	c := opts.Config
	if s.InputSize != c.InputSize() || s.PolicySize != c.PolicySize() || s.D != c.D {
		t.Fatalf("sizes %d %d %d, want %d %d %d", s.InputSize, s.PolicySize, s.D, c.InputSize(), c.PolicySize(), c.D)
	}
	want := 0
	outcomes := map[int]Outcome{}
	for _, g := range res.Games {
		want += g.Samples
		o, err := g.Outcome()
		if err != nil {
			t.Fatal(err)
		}
		outcomes[g.Index] = o
	}
	if s.N != want || int64(s.N) != res.Summary.Samples {
		t.Fatalf("%d samples read, games hold %d, summary %d", s.N, want, res.Summary.Samples)
	}
	for i := range s.N {
		var sum float32
		for _, p := range s.Policy[i*s.PolicySize : (i+1)*s.PolicySize] {
			sum += p
		}
		if sum < 0.999 || sum > 1.001 {
			t.Fatalf("sample %d: policy sums to %v", i, sum)
		}
		o := outcomes[int(s.Game[i])]
		v, dwin, mask := FTLTargets(o, int(s.Move[i]), s.ToMove[i], s.D)
		if s.Value[i] != v {
			t.Fatalf("sample %d: value %v, want %v", i, s.Value[i], v)
		}
		for k := range s.D {
			if s.DWin[i*s.D+k] != dwin[k] || s.DMask[i*s.D+k] != mask[k] {
				t.Fatalf("sample %d: d-win targets differ from the game's outcome at d=%d", i, k+1)
			}
		}
		// The planes are the position's encoding: own + opponent + empty
		// cover every point exactly once.
		planes := s.Planes[i*s.InputSize : (i+1)*s.InputSize]
		n := 49
		for p := range n {
			if planes[nn.PlaneOwn*n+p]+planes[nn.PlaneOpponent*n+p]+planes[nn.PlaneEmpty*n+p] != 1 {
				t.Fatalf("sample %d: point %d is not exactly one of own, opponent, empty", i, p)
			}
		}
		black := planes[nn.PlaneBlackToMove*n] == 1
		if black != (s.ToMove[i] == game.Black) {
			t.Fatalf("sample %d: black-to-move plane disagrees with to_move", i)
		}
	}
	if !strings.Contains(got.Meta[MetaNetConfig], `"board":7`) {
		t.Errorf("net_config meta %q", got.Meta[MetaNetConfig])
	}
}
