package movecands

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"lifezero/datasets"
	"lifezero/features"
	"lifezero/game"
)

// Options configures Build.
type Options struct {
	// Features is the feature set to extract (required).
	Features *features.Extractor `json:"-"` // hashed as its canonical JSON, after learning
	// LearnDiamonds, when > 0, first learns a diamond vocabulary from the
	// played moves of every sampled game (diamonds seen at least this many
	// times) and adds it to Features, which must have none yet. Learn it on
	// training data only and reuse the resulting set (stored in the
	// manifest, see FeatureSet) for validation data.
	LearnDiamonds int64
	// LearnShapes, when > 0, learns a vocabulary of large shape patterns
	// the same way (features.LearnShapes: shapes seen at least this many
	// times), for a feature set that has none yet.
	LearnShapes int64
	// Dates keeps the games dated inside this range (see datasets.DateRange).
	Dates datasets.DateRange
	// MaxGames samples this many of the games in range, uniformly without
	// replacement; 0 takes them all. Games that then fail to replay are
	// counted, not replaced.
	MaxGames int
	// PositionsPerGame samples this many positions of each game, uniformly
	// without replacement; 0 takes every position.
	PositionsPerGame int
	// Seed fixes the sampling: the same inputs, options and seed give the
	// same dataset, whatever Workers is.
	Seed uint64
	// Workers is the number of games replayed in parallel; 0 means GOMAXPROCS.
	Workers int `json:"-"`
	// RowsPerFile caps the positions per data file (0: the datasets default).
	RowsPerFile int64
	// Stage and InputHash go into the manifest. An empty InputHash is
	// replaced by a hash (datasets.InputHasher) of the options not tagged
	// json:"-", the feature set and the inputs' files.
	Stage     string `json:"-"`
	InputHash string `json:"-"`
	// Progress, if set, is called after each batch of games with the number
	// of sampled games done and their total.
	Progress func(done, total int) `json:"-"`
	// OnSkip, if set, is called with every sampled game that is left out.
	OnSkip func(SkippedGame) `json:"-"`
}

// SkippedGame is a sampled game that gave no positions.
type SkippedGame struct {
	GameID, Source string
	Err            *SkipError
}

func (s SkippedGame) String() string {
	return fmt.Sprintf("game %s (%s): %v", s.GameID, s.Source, s.Err)
}

func (o *Options) check() error {
	switch {
	case o.Features == nil:
		return errors.New("movecands: no feature set given")
	case o.MaxGames < 0 || o.PositionsPerGame < 0 || o.Workers < 0 || o.RowsPerFile < 0 || o.LearnDiamonds < 0 || o.LearnShapes < 0:
		return fmt.Errorf("movecands: MaxGames %d, PositionsPerGame %d, Workers %d, RowsPerFile %d, LearnDiamonds %d and LearnShapes %d must not be negative",
			o.MaxGames, o.PositionsPerGame, o.Workers, o.RowsPerFile, o.LearnDiamonds, o.LearnShapes)
	case o.LearnDiamonds > 0 && len(o.Features.Config().Diamonds) > 0:
		return errors.New("movecands: LearnDiamonds is set but the feature set already has diamonds")
	case o.LearnShapes > 0 && len(o.Features.Config().Shapes) > 0:
		return errors.New("movecands: LearnShapes is set but the feature set already has shapes")
	}
	return o.Dates.Check()
}

// Build samples positions from the games datasets in gameDirs and writes them
// with their candidate moves and features as a movecands dataset in outDir.
// The manifest is written last; its Meta holds the Summary (see SummaryOf)
// and the feature set (see FeatureSet). An interrupted build leaves no
// manifest, and a rerun starts over.
func Build(ctx context.Context, gameDirs []string, outDir string, opt Options) (*datasets.Manifest, error) {
	if err := opt.check(); err != nil {
		return nil, err
	}
	if len(gameDirs) == 0 {
		return nil, errors.New("movecands: no games datasets given")
	}
	if opt.Workers == 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	sum := newSummary(gameDirs, opt)
	games, inputs, err := selectGames(ctx, gameDirs, opt, &sum)
	if err != nil {
		return nil, err
	}
	if opt.LearnDiamonds > 0 || opt.LearnShapes > 0 {
		if opt.Features, err = learnPatterns(ctx, games, opt.Features, opt.LearnDiamonds, opt.LearnShapes); err != nil {
			return nil, err
		}
	}
	set, err := featureSetJSON(opt.Features)
	if err != nil {
		return nil, err
	}
	sum.NumFeatures = opt.Features.NumFeatures()
	sum.Diamonds = len(opt.Features.Config().Diamonds)
	sum.Shapes = len(opt.Features.Config().Shapes)
	if opt.InputHash == "" {
		if opt.InputHash, err = inputHash(opt, set, inputs); err != nil {
			return nil, err
		}
	}
	w, err := datasets.NewMoveCandsWriter(outDir, datasets.WriterOptions{MaxRowsPerFile: opt.RowsPerFile})
	if err != nil {
		return nil, err
	}
	defer w.Abort()
	if err := extractAll(ctx, games, opt, w, &sum); err != nil {
		return nil, err
	}
	meta := sum.meta()
	meta[metaFeatureSet] = set
	return w.Commit(datasets.Manifest{Stage: opt.Stage, InputHash: opt.InputHash, Meta: meta})
}

// selectGames reads the games of every input, keeps those in the date range
// (first occurrence of each game id) and samples MaxGames of them, keeping
// their input order. It returns the games and the inputs' manifests.
func selectGames(ctx context.Context, dirs []string, opt Options, sum *Summary) ([]datasets.Game, []*datasets.Manifest, error) {
	var games []datasets.Game
	var manifests []*datasets.Manifest
	seen := map[string]bool{}
	for _, dir := range dirs {
		m, err := datasets.ForEachGame(ctx, dir, func(g datasets.Game) error {
			sum.GamesRead++
			if reason := opt.Dates.Skip(g.Date); reason != "" {
				sum.OutOfRange[reason]++
				return nil
			}
			if seen[g.GameID] {
				sum.Skipped[SkipDuplicate]++
				return nil
			}
			seen[g.GameID] = true
			games = append(games, g)
			return nil
		})
		if err != nil {
			return nil, nil, fmt.Errorf("movecands: %w", err)
		}
		manifests = append(manifests, m)
	}
	sum.InRange = len(games)
	if opt.MaxGames > 0 && opt.MaxGames < len(games) {
		rng := rand.New(rand.NewPCG(opt.Seed, 0x67616d6573)) // "games"
		pick := rng.Perm(len(games))[:opt.MaxGames]
		slices.Sort(pick)
		kept := make([]datasets.Game, len(pick))
		for i, j := range pick {
			kept[i] = games[j]
		}
		games = kept
	}
	sum.Sampled = len(games)
	return games, manifests, nil
}

// learnPatterns learns the diamond and shape vocabularies (those whose
// minimum count is > 0) from the played moves of games and returns the
// feature set extended with them.
func learnPatterns(ctx context.Context, games []datasets.Game, e *features.Extractor, minDiamonds, minShapes int64) (*features.Extractor, error) {
	samples := func(yield func(features.Sample, error) bool) {
		stop := errors.New("stop")
		for i := range games {
			rec, err := ParseGame(&games[i])
			if err != nil {
				continue // counted when the positions are extracted
			}
			err = rec.Replay(func(pos *game.Position, _ features.History, played game.Point) error {
				if !yield(features.Sample{Pos: pos, Move: played}, nil) {
					return stop
				}
				return nil
			})
			if err != nil {
				return
			}
		}
	}
	cfg := e.Config()
	var err error
	if minDiamonds > 0 {
		if cfg.Diamonds, err = features.LearnDiamonds(ctx, samples, minDiamonds); err != nil {
			return nil, fmt.Errorf("movecands: %w", err)
		}
	}
	if minShapes > 0 {
		if cfg.Shapes, err = features.LearnShapes(ctx, samples, minShapes); err != nil {
			return nil, fmt.Errorf("movecands: %w", err)
		}
	}
	out, err := features.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("movecands: %w", err)
	}
	return out, nil
}

// gameBatch is the number of games per worker in a batch: rows of a batch
// are held in memory until it is written.
const gameBatch = 4

// extractAll extracts the sampled positions of every game, in parallel
// batches, and writes them in game order.
func extractAll(ctx context.Context, games []datasets.Game, opt Options, w *datasets.MoveCandsWriter, sum *Summary) error {
	scratch := make([]features.Moves, opt.Workers)
	batch := gameBatch * opt.Workers
	results := make([]gameResult, batch)
	for start := 0; start < len(games); start += batch {
		if err := ctx.Err(); err != nil {
			return err
		}
		chunk := games[start:min(start+batch, len(games))]
		var wg sync.WaitGroup
		next := make(chan int, len(chunk))
		for i := range chunk {
			next <- i
		}
		close(next)
		for wk := range min(opt.Workers, len(chunk)) {
			wg.Add(1)
			go func(mv *features.Moves) {
				defer wg.Done()
				for i := range next {
					results[i] = extractGame(&chunk[i], opt, mv)
				}
			}(&scratch[wk])
		}
		wg.Wait()
		for i := range chunk {
			if err := record(w, &chunk[i], results[i], opt, sum); err != nil {
				return err
			}
			results[i] = gameResult{}
		}
		if opt.Progress != nil {
			opt.Progress(start+len(chunk), len(games))
		}
	}
	return nil
}

// record writes one game's rows and counts it.
func record(w *datasets.MoveCandsWriter, g *datasets.Game, r gameResult, opt Options, sum *Summary) error {
	if r.err != nil {
		return r.err
	}
	if r.skip != nil {
		sum.Skipped[r.skip.Reason]++
		if opt.OnSkip != nil {
			opt.OnSkip(SkippedGame{GameID: g.GameID, Source: g.Source, Err: r.skip})
		}
		return nil
	}
	sum.Used++
	for _, row := range r.rows {
		if err := w.Append(row); err != nil {
			return err
		}
		sum.Positions++
		sum.Candidates += int64(len(row.Moves))
	}
	return nil
}

type gameResult struct {
	rows []*datasets.MoveCands
	skip *SkipError
	err  error
}

// extractGame replays one game and extracts its sampled positions.
func extractGame(g *datasets.Game, opt Options, mv *features.Moves) gameResult {
	rec, err := ParseGame(g)
	if err != nil {
		var se *SkipError
		if errors.As(err, &se) {
			return gameResult{skip: se}
		}
		return gameResult{err: err}
	}
	chosen := samplePositions(len(rec.Moves), opt.PositionsPerGame, opt.Seed, g.GameID)
	var rows []*datasets.MoveCands
	err = rec.Replay(func(pos *game.Position, h features.History, played game.Point) error {
		if !chosen[pos.MoveNumber()] {
			return nil
		}
		opt.Features.Extract(pos, h, mv)
		row, err := rowOf(g, pos, mv, played)
		if err != nil {
			return err
		}
		rows = append(rows, row)
		return nil
	})
	if err != nil {
		return gameResult{err: fmt.Errorf("movecands: game %s (%s): %w", g.GameID, g.Source, err)}
	}
	return gameResult{rows: rows}
}

// samplePositions marks k of the n move indices, drawn from a generator
// seeded by the seed and the game id (so independent of the order games are
// processed in); k = 0 or k >= n marks all.
func samplePositions(n, k int, seed uint64, gameID string) []bool {
	chosen := make([]bool, n)
	if k == 0 || k >= n {
		for i := range chosen {
			chosen[i] = true
		}
		return chosen
	}
	h := fnv.New64a()
	h.Write([]byte(gameID))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	for _, i := range rng.Perm(n)[:k] {
		chosen[i] = true
	}
	return chosen
}

// rowOf copies the extracted candidates of pos into a dataset row.
func rowOf(g *datasets.Game, pos *game.Position, mv *features.Moves, played game.Point) (*datasets.MoveCands, error) {
	idx := mv.Index(played)
	if idx < 0 {
		return nil, fmt.Errorf("move %d: the played move %s is not among the %d candidates", pos.MoveNumber()+1, pos.PointString(played), mv.Len())
	}
	size := pos.Size()
	row := &datasets.MoveCands{
		GameID: g.GameID, Date: g.Date, MoveNumber: int32(pos.MoveNumber()), BoardSize: int32(size),
		ToMove: datasets.ToMoveBlack, Played: int32(idx),
		Moves: make([]int16, mv.Len()), Features: make([][]int32, mv.Len()),
	}
	if pos.ToMove() == game.White {
		row.ToMove = datasets.ToMoveWhite
	}
	total := 0
	for i := range mv.Len() {
		total += len(mv.Features(i))
	}
	flat := make([]int32, 0, total)
	for i, p := range mv.Points() {
		row.Moves[i] = moveCode(pos, p)
		start := len(flat)
		flat = append(flat, mv.Features(i)...)
		row.Features[i] = flat[start:len(flat):len(flat)]
	}
	return row, nil
}

// moveCode is the datasets.MoveCands code of p: x + y·size, or the pass.
func moveCode(pos *game.Position, p game.Point) int16 {
	if p == game.Pass {
		return datasets.PassMove
	}
	x, y := pos.XY(p)
	return int16(x + y*pos.Size())
}
