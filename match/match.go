package match

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"lifezero/game"
	"lifezero/gtp"
	"lifezero/internal/atomicfile"
	"lifezero/progress"
)

// Options configure a match.
type Options struct {
	// A and B are the engines' command lines, split on spaces (no
	// quoting): A plays Black in the first game.
	A, B string
	// Games is the number of games to play.
	Games int
	// Size, Komi and Handicap set up every game; Handicap 0 or 1 means
	// none.
	Size     int
	Komi     float64
	Handicap int
	// MaxMoves ends a game unfinished after this many moves (passes
	// included); it is then scored as it stands. 0 means 3·Size².
	MaxMoves int
	// FixedColours keeps A on Black in every game.
	FixedColours bool
	// Seed makes the games reproducible: before game n, every engine that
	// knows set_random_seed (lifezero, GNU Go) gets seed·1000003 + n, so a
	// game plays the same whether or not a run was resumed before it.
	Seed uint64
	// OutDir receives match.json, games/ and results.json.
	OutDir string
	// Programs maps a program name, the first word of A or B, to the
	// path that starts it. The settings keep the name, so a match whose
	// binary was rebuilt elsewhere (go run) still resumes.
	Programs map[string]string
	// Progress counts finished games (nil: none); Log gets a line per
	// game (nil: none).
	Progress progress.Reporter
	Log      *slog.Logger
}

// settings is what must agree between runs of the same match: OUT/match.json.
type settings struct {
	A            string  `json:"a"`
	B            string  `json:"b"`
	Size         int     `json:"size"`
	Komi         float64 `json:"komi"`
	Handicap     int     `json:"handicap"`
	MaxMoves     int     `json:"max_moves"`
	FixedColours bool    `json:"fixed_colours"`
	Seed         uint64  `json:"seed"`
}

// Result is the outcome of one game, OUT/games/game-NNNN.json.
type Result struct {
	Game  int    `json:"game"` // 1-based
	Black string `json:"black"`
	White string `json:"white"`
	// AColour is "B" or "W": the colour engine A played.
	AColour string `json:"a_colour"`
	// Winner is "B", "W" or "" for a draw; Score is Black's lead (0 for a
	// resignation or forfeit); RE is the SGF result ("B+3.5", "W+R").
	Winner string  `json:"winner"`
	Score  float64 `json:"score"`
	RE     string  `json:"re"`
	// End says how the game ended: "passes", "resign", "move cap" or
	// "illegal move"; ScoredBy is "gnugo" or "area" for scored games.
	End      string  `json:"end"`
	ScoredBy string  `json:"scored_by,omitempty"`
	Moves    int     `json:"moves"`
	Seconds  float64 `json:"seconds"`
	SGF      string  `json:"sgf"` // file name under games/
}

// AResult is engine A's result: 1 for a win, 0 for a loss, 0.5 for a draw.
func (r *Result) AResult() float64 {
	switch r.Winner {
	case "":
		return 0.5
	case r.AColour:
		return 1
	}
	return 0
}

// Summary is OUT/results.json.
type Summary struct {
	A       string   `json:"a"`
	B       string   `json:"b"`
	Size    int      `json:"size"`
	Komi    float64  `json:"komi"`
	Games   []Result `json:"games"`
	Stats   Stats    `json:"stats"`
	Skipped int      `json:"skipped"` // games found finished by an earlier run
}

// Run plays the games of o that OUT does not already hold, then writes
// and returns the summary of every game. Cancelling ctx stops after the
// current game is abandoned; the finished games stay for a rerun.
func Run(ctx context.Context, o Options) (*Summary, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	st := settings{A: o.A, B: o.B, Size: o.Size, Komi: o.Komi, Handicap: o.Handicap, MaxMoves: o.MaxMoves, FixedColours: o.FixedColours, Seed: o.Seed}
	if err := claimDir(o.OutDir, st); err != nil {
		return nil, err
	}
	results := make([]*Result, o.Games)
	todo := 0
	for i := range results {
		r, err := readResult(o.OutDir, i+1)
		if err != nil {
			return nil, err
		}
		results[i] = r
		if r == nil {
			todo++
		}
	}
	sum := &Summary{A: o.A, B: o.B, Size: o.Size, Komi: o.Komi, Skipped: o.Games - todo}
	if todo > 0 {
		if err := playAll(ctx, &o, results, todo); err != nil {
			return nil, err
		}
	}
	var scores []float64
	for _, r := range results {
		sum.Games = append(sum.Games, *r)
		scores = append(scores, r.AResult())
	}
	sum.Stats = Summarise(scores)
	data, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := atomicfile.WriteFile(filepath.Join(o.OutDir, "results.json"), append(data, '\n')); err != nil {
		return nil, err
	}
	if err := writeDataset(filepath.Join(o.OutDir, ResultsDir), sum, st); err != nil {
		return nil, err
	}
	return sum, nil
}

func (o *Options) check() error {
	switch {
	case strings.TrimSpace(o.A) == "" || strings.TrimSpace(o.B) == "":
		return errors.New("match: both engines' command lines are needed")
	case o.Games < 1:
		return fmt.Errorf("match: %d games: want at least 1", o.Games)
	case o.Size < game.MinSize || o.Size > game.MaxSize:
		return fmt.Errorf("match: board size %d out of range %d..%d", o.Size, game.MinSize, game.MaxSize)
	case o.Handicap < 0 || o.Handicap > 9:
		return fmt.Errorf("match: handicap %d: want 0..9", o.Handicap)
	case o.MaxMoves < 0:
		return fmt.Errorf("match: move cap %d is negative", o.MaxMoves)
	case o.OutDir == "":
		return errors.New("match: an output directory is needed")
	}
	if o.MaxMoves == 0 {
		o.MaxMoves = 3 * o.Size * o.Size
	}
	if o.Handicap == 1 {
		o.Handicap = 0
	}
	return nil
}

// claimDir creates dir and its match.json, or checks that the match.json
// there has the same settings.
func claimDir(dir string, st settings) error {
	if err := os.MkdirAll(filepath.Join(dir, "games"), 0o755); err != nil {
		return fmt.Errorf("match: %w", err)
	}
	path := filepath.Join(dir, "match.json")
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		data, err := json.MarshalIndent(st, "", "  ")
		if err != nil {
			return err
		}
		return atomicfile.WriteFile(path, append(data, '\n'))
	case err != nil:
		return fmt.Errorf("match: %w", err)
	}
	var old settings
	if err := json.Unmarshal(data, &old); err != nil {
		return fmt.Errorf("match: %s: %w (remove the directory or choose another)", path, err)
	}
	if !reflect.DeepEqual(old, st) {
		return fmt.Errorf("match: %s holds another match (%+v, now %+v): choose another output directory", dir, old, st)
	}
	return nil
}

func gameName(i int) string { return fmt.Sprintf("game-%04d", i) }

// readResult returns the finished game i of an earlier run, or nil.
func readResult(dir string, i int) (*Result, error) {
	path := filepath.Join(dir, "games", gameName(i)+".json")
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	var r Result
	if err := json.Unmarshal(data, &r); err != nil || r.Game != i {
		return nil, fmt.Errorf("match: %s is not game %d's result (%v): remove it to replay the game", path, i, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "games", r.SGF)); err != nil {
		return nil, fmt.Errorf("match: game %d: its record is missing (%w): remove %s to replay the game", i, err, path)
	}
	return &r, nil
}

// playAll starts both engines and plays the games whose results are nil.
func playAll(ctx context.Context, o *Options, results []*Result, todo int) (err error) {
	a, err := startEngine(ctx, o.A, o.Programs)
	if err != nil {
		return err
	}
	defer a.close()
	b, err := startEngine(ctx, o.B, o.Programs)
	if err != nil {
		return err
	}
	defer b.close()
	for _, e := range []*engine{a, b} {
		if e.gnugo && !strings.Contains(e.cmdline, "--chinese-rules") && o.Log != nil {
			o.Log.Warn("GNU Go scores by territory (Japanese rules) unless given --chinese-rules; lifezero plays for area scoring", "engine", e.cmdline)
		}
	}
	if o.Progress != nil {
		o.Progress.Start(todo, "games")
		defer o.Progress.Finish()
	}
	for i, r := range results {
		if r != nil {
			continue
		}
		black, white, aColour := a, b, "B"
		if !o.FixedColours && i%2 == 1 {
			black, white, aColour = b, a, "W"
		}
		start := time.Now()
		res, err := playGame(ctx, o, i+1, black, white)
		if err != nil {
			return fmt.Errorf("match: game %d: %w", i+1, err)
		}
		res.AColour, res.Seconds = aColour, time.Since(start).Seconds()
		data, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return err
		}
		if err := atomicfile.WriteFile(filepath.Join(o.OutDir, "games", gameName(i+1)+".json"), append(data, '\n')); err != nil {
			return err
		}
		results[i] = res
		if o.Log != nil {
			o.Log.Info("game finished", "game", i+1, "black", res.Black, "white", res.White, "result", res.RE,
				"end", res.End, "moves", res.Moves, "seconds", fmt.Sprintf("%.1f", res.Seconds))
		}
		if o.Progress != nil {
			o.Progress.Add(1)
		}
	}
	return nil
}

// engine is a running GTP engine with the name it gave.
type engine struct {
	*gtp.Engine
	cmdline string
	name    string // GTP name and version
	gnugo   bool
	// seedable: the engine knows set_random_seed.
	seedable bool
}

func startEngine(ctx context.Context, cmdline string, programs map[string]string) (*engine, error) {
	argv := strings.Fields(cmdline)
	if path, ok := programs[argv[0]]; ok {
		argv[0] = path
	}
	e, err := gtp.Start(ctx, argv[0], argv[1:]...)
	if err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	name, err := e.Command(ctx, "name")
	if err != nil {
		e.Close()
		return nil, fmt.Errorf("match: engine %q: %w", cmdline, err)
	}
	ver, _ := e.Command(ctx, "version") // optional
	full := strings.TrimSpace(name + " " + ver)
	known, _ := e.Command(ctx, "known_command set_random_seed")
	return &engine{Engine: e, cmdline: cmdline, name: full, gnugo: name == "GNU Go", seedable: known == "true"}, nil
}

func (e *engine) close() { _ = e.Engine.Close() }
