package selfplay

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"time"

	"lifezero/datasets"
	"lifezero/game"
	"lifezero/internal/atomicfile"
	"lifezero/nn"
	"lifezero/progress"
	"lifezero/sgf"
)

// Options configure a self-play run. Start from DefaultOptions.
type Options struct {
	// Starts are the positions games begin from, used in turn (game i
	// starts from Starts[i mod len]).
	Starts []Start
	// Net evaluates positions; nil plays generation 0 with UniformNet.
	Net Net
	// NetName identifies the network (a file name and checksum) in the
	// manifest and in the fingerprint that decides whether earlier partial
	// work can be resumed.
	NetName string
	// Config is the network's shape: its encoding (board, planes) and D
	// fix the samples' layout.
	Config nn.Config
	// Games is the number of games to play.
	Games int
	// Simulations is the number of PUCT simulations per searched move.
	Simulations int
	// TempMoves is the number of moves from a game's start that are sampled
	// in proportion to the visit counts (temperature 1); later moves take
	// the most visited.
	TempMoves int
	// DirichletAlpha and DirichletWeight set the root noise (the reference
	// training: 0.03 and 0.25).
	DirichletAlpha, DirichletWeight float64
	// DW is the generation's d_w: the living side wins a game if it lives
	// by move number DW.
	DW int
	// MaxMoves caps a game's length in moves from its start; 0 means twice
	// the number of points of the problem's region (98 on 7x7 kill-all).
	MaxMoves int
	// GamesPerFile is the number of games played together (their leaves
	// evaluated in one batch) and written to one file.
	GamesPerFile int
	// LeavesPerGame is the number of leaves a game queues per batch, under
	// virtual loss.
	LeavesPerGame int
	// Workers is the number of chunks played at once.
	Workers int
	// ReuseTree keeps, after each move, the subtree below the move played
	// as the start of the next move's search, whose simulations then count
	// the visits already there (as Leela Zero and KataGo do): a search
	// stops once its root has Simulations visits.
	ReuseTree bool
	// CacheEntries bounds each chunk's cache of network evaluations
	// (positions already evaluated are not sent again); 0 turns it off.
	CacheEntries int
	// Seed seeds every game (game i from Seed and i).
	Seed uint64
	// Log receives a line per finished chunk; nil discards.
	Log *slog.Logger
	// Progress counts finished games; nil shows nothing.
	Progress progress.Reporter
}

// DefaultOptions returns 400 simulations (the paper's), the first 8 moves
// sampled, Dirichlet noise 0.03 with weight 0.25, 32 games per file, one
// leaf per game per batch, a worker per CPU, the search tree reused from
// move to move and an evaluation cache of 65,536 positions per chunk.
func DefaultOptions() Options {
	return Options{
		Simulations: 400, TempMoves: 8, DirichletAlpha: 0.03, DirichletWeight: 0.25,
		GamesPerFile: 32, LeavesPerGame: 1, Workers: runtime.NumCPU(),
		ReuseTree: true, CacheEntries: 1 << 16,
	}
}

func (o *Options) validate() error {
	switch {
	case len(o.Starts) == 0:
		return errors.New("no starts")
	case o.Games < 1:
		return fmt.Errorf("games %d: want at least 1", o.Games)
	case o.Simulations < 2:
		return fmt.Errorf("simulations %d: want at least 2", o.Simulations)
	case o.TempMoves < 0 || o.MaxMoves < 0:
		return fmt.Errorf("temperature moves %d, max moves %d: want >= 0", o.TempMoves, o.MaxMoves)
	case o.DirichletAlpha < 0 || o.DirichletWeight < 0 || o.DirichletWeight > 1:
		return fmt.Errorf("dirichlet alpha %v weight %v: want alpha >= 0 and 0 <= weight <= 1", o.DirichletAlpha, o.DirichletWeight)
	case o.DirichletWeight > 0 && o.DirichletAlpha == 0:
		return errors.New("dirichlet weight set but alpha is 0")
	case o.DW < 1:
		return fmt.Errorf("d_w %d: want at least 1", o.DW)
	case o.CacheEntries < 0:
		return fmt.Errorf("cache entries %d: want >= 0", o.CacheEntries)
	case o.GamesPerFile < 1 || o.LeavesPerGame < 1 || o.Workers < 1:
		return fmt.Errorf("games per file %d, leaves per game %d, workers %d: want at least 1", o.GamesPerFile, o.LeavesPerGame, o.Workers)
	}
	if err := o.Config.Validate(); err != nil {
		return fmt.Errorf("network config: %w", err)
	}
	for _, s := range o.Starts {
		if s.Problem == nil || s.Problem.Start == nil {
			return errors.New("a start has no problem")
		}
		if n := s.Problem.Start.Size(); n != o.Config.Board {
			return fmt.Errorf("start %s is %dx%d, the network %dx%d", s.Problem.ID, n, n, o.Config.Board, o.Config.Board)
		}
	}
	return nil
}

// fingerprint identifies everything that decides the games, so a rerun
// resumes only work done under the same settings.
func (o *Options) fingerprint() string {
	ids := make([]string, len(o.Starts))
	for i, s := range o.Starts {
		ids[i] = s.Problem.ID + "/" + strconv.Itoa(s.HandicapStones)
	}
	data, _ := json.Marshal([]any{1, ids, o.NetName, o.Config, o.Games, o.Simulations, o.TempMoves,
		o.DirichletAlpha, o.DirichletWeight, o.DW, o.MaxMoves, o.GamesPerFile, o.LeavesPerGame, o.Seed, o.ReuseTree})
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// Summary sums up a run's games.
type Summary struct {
	Games        int
	LivingWins   int     // games the living side won
	WinsWithinDW int     // ... by move d_w
	Undecided    int     // games stopped at the move cap
	MeanLength   float64 // mean end move number
	DW           int     // the d_w the games were played under
	NextDW       int     // the median end move number: the next generation's d_w
	Samples      int64
	Resumed      int // games found finished by an earlier run
	Seconds      float64
}

// Result is a finished run: its sample files (for the manifest), the games
// and the summary.
type Result struct {
	Files   []datasets.FileEntry
	Games   []GameSummary
	Summary Summary
	// GamesFile is the SGF collection of every game, relative to the
	// output directory.
	GamesFile string
	// Config, NetName and Simulations are the run's settings.
	Config      nn.Config
	NetName     string
	Simulations int
}

// GamesFileName is the SGF collection a run writes.
const GamesFileName = "games.sgf"

// chunkFile is games-NNNNN.json: the games of one chunk, written after its
// samples file, so its presence marks the chunk finished.
type chunkFile struct {
	Fingerprint string        `json:"fingerprint"`
	Chunk       int           `json:"chunk"`
	Samples     int64         `json:"samples"`
	Games       []GameSummary `json:"games"`
}

func samplesName(chunk int) string { return fmt.Sprintf("samples-%05d", chunk) }
func chunkName(chunk int) string   { return fmt.Sprintf("games-%05d.json", chunk) }

// Run plays opts.Games games into outDir: a samples file and a games file
// per chunk of GamesPerFile games, then games.sgf. Chunks finished by an
// earlier run with the same options are kept, so a killed run resumes where
// it stopped. It writes no manifest: the caller writes one from
// Result.Manifest.
func Run(ctx context.Context, outDir string, opts Options) (*Result, error) {
	if err := opts.validate(); err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	if opts.Net == nil {
		opts.Net = UniformNet{Config: opts.Config}
		if opts.NetName == "" {
			opts.NetName = "uniform"
		}
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	began := time.Now()
	fp := opts.fingerprint()
	nChunks := (opts.Games + opts.GamesPerFile - 1) / opts.GamesPerFile
	chunks := make([]*chunkFile, nChunks)
	resumed := 0
	for k := range chunks {
		if c := loadChunk(outDir, k, fp); c != nil {
			chunks[k] = c
			resumed += len(c.Games)
		}
	}
	log := opts.Log
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if resumed > 0 {
		log.Info("self-play resumes", "games_done", resumed, "games", opts.Games)
	}
	prog := progress.Or(opts.Progress)
	prog.Start(opts.Games, "self-play games")
	prog.Add(resumed)
	err := playChunks(ctx, outDir, &opts, fp, chunks, log, prog)
	prog.Finish()
	if err != nil {
		return nil, err
	}
	res, err := finish(outDir, &opts, chunks)
	if err != nil {
		return nil, err
	}
	res.Summary.Resumed = resumed
	res.Summary.Seconds = time.Since(began).Seconds()
	log.Info("self-play done", "games", res.Summary.Games, "living_wins", res.Summary.LivingWins,
		"wins_within_dw", res.Summary.WinsWithinDW, "mean_length", fmt.Sprintf("%.1f", res.Summary.MeanLength),
		"dw", res.Summary.DW, "next_dw", res.Summary.NextDW, "samples", res.Summary.Samples)
	return res, nil
}

// loadChunk returns chunk k if an earlier run with the same fingerprint
// finished it.
func loadChunk(dir string, k int, fp string) *chunkFile {
	data, err := os.ReadFile(filepath.Join(dir, chunkName(k)))
	if err != nil {
		return nil
	}
	var c chunkFile
	if json.Unmarshal(data, &c) != nil || c.Fingerprint != fp || c.Chunk != k {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, samplesName(k)+datasets.FileExt)); err != nil {
		return nil
	}
	return &c
}

// playChunks plays the unfinished chunks on opts.Workers goroutines.
func playChunks(ctx context.Context, dir string, opts *Options, fp string, chunks []*chunkFile, log *slog.Logger, prog progress.Reporter) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	todo := make(chan int)
	var (
		mu       sync.Mutex
		firstErr error
		done     []*chunkFile
		wg       sync.WaitGroup
	)
	for _, c := range chunks {
		if c != nil {
			done = append(done, c)
		}
	}
	p := &player{opts: opts, cfg: opts.Config}
	for range opts.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range todo {
				c, err := playChunk(ctx, dir, p, fp, k, func(*Game) { prog.Add(1) })
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
					cancel()
				}
				if err == nil {
					chunks[k] = c
					done = append(done, c)
					s := summarise(done, opts.DW)
					log.Info("self-play chunk done", "chunk", k, "games", s.Games, "living_win_rate",
						fmt.Sprintf("%.3f", float64(s.LivingWins)/float64(s.Games)), "within_dw_rate",
						fmt.Sprintf("%.3f", float64(s.WinsWithinDW)/float64(s.Games)),
						"mean_length", fmt.Sprintf("%.1f", s.MeanLength), "dw", opts.DW, "median_length", s.NextDW)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for k, c := range chunks {
		if c != nil {
			continue
		}
		select {
		case todo <- k:
		case <-ctx.Done():
			break feed
		}
	}
	close(todo)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// playChunk plays chunk k and writes its samples file, then its games file.
func playChunk(ctx context.Context, dir string, p *player, fp string, k int, onGame func(*Game)) (*chunkFile, error) {
	lo := k * p.opts.GamesPerFile
	hi := min(p.opts.Games, lo+p.opts.GamesPerFile)
	indices := make([]int, 0, hi-lo)
	for i := lo; i < hi; i++ {
		indices = append(indices, i)
	}
	games, err := p.playChunk(ctx, indices, onGame)
	if err != nil {
		return nil, err
	}
	f, err := datasets.CreateFile(dir, samplesName(k), SamplesSchema(p.cfg))
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	rec := samplesRecord(p.cfg, games)
	err = f.Write(rec)
	rec.Release()
	if err != nil {
		f.Abort()
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	entry, err := f.Close()
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	c := &chunkFile{Fingerprint: fp, Chunk: k, Samples: entry.Rows}
	for _, g := range games {
		c.Games = append(c.Games, g.summary(p.opts.DW))
	}
	data, err := json.MarshalIndent(c, "", " ")
	if err != nil {
		return nil, fmt.Errorf("selfplay: encode chunk %d: %w", k, err)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, chunkName(k)), data); err != nil {
		return nil, err
	}
	return c, nil
}

// summarise sums up the games of the chunks.
func summarise(chunks []*chunkFile, dw int) Summary {
	s := Summary{DW: dw}
	var outcomes []Outcome
	for _, c := range chunks {
		s.Samples += c.Samples
		for _, g := range c.Games {
			if o, err := g.Outcome(); err == nil {
				outcomes = append(outcomes, o)
			}
		}
	}
	s.Tally(outcomes)
	return s
}

// Tally sets the game counts, the mean length and the next d_w from the
// outcomes of a run's games (its DW must be set).
func (s *Summary) Tally(outcomes []Outcome) {
	s.Games, s.LivingWins, s.Undecided, s.WinsWithinDW = len(outcomes), 0, 0, 0
	total := 0
	for _, o := range outcomes {
		total += o.EndMove
		switch o.Result {
		case game.LivingWins:
			s.LivingWins++
		case game.Undecided:
			s.Undecided++
		}
		if o.LivedWithin(s.DW) {
			s.WinsWithinDW++
		}
	}
	s.MeanLength = 0
	if s.Games > 0 {
		s.MeanLength = float64(total) / float64(s.Games)
	}
	s.NextDW = MedianLength(outcomes)
}

// finish lists the sample files and writes games.sgf.
func finish(dir string, opts *Options, chunks []*chunkFile) (*Result, error) {
	res := &Result{GamesFile: GamesFileName, Config: opts.Config, NetName: opts.NetName, Simulations: opts.Simulations}
	var coll sgf.Collection
	for k, c := range chunks {
		name := samplesName(k) + datasets.FileExt
		sha, size, err := datasets.HashFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("selfplay: %w", err)
		}
		res.Files = append(res.Files, datasets.FileEntry{Name: name, Rows: c.Samples, Bytes: size, SHA256: sha})
		for _, g := range c.Games {
			res.Games = append(res.Games, g)
			parsed, err := sgf.ParseString(g.SGF)
			if err != nil {
				return nil, fmt.Errorf("selfplay: chunk %d game %d: %w", k, g.Index, err)
			}
			coll = append(coll, parsed...)
		}
	}
	slices.SortFunc(res.Games, func(a, b GameSummary) int { return a.Index - b.Index })
	res.Summary = summarise(chunks, opts.DW)
	if err := atomicfile.WriteFile(filepath.Join(dir, GamesFileName), []byte(coll.String())); err != nil {
		return nil, err
	}
	return res, nil
}

// Manifest fills m (whose Stage and InputHash the caller sets) as the
// run's samples dataset: kind, schema version, the sample files and meta
// that later generations read (net_config, dw, next_dw).
func (r *Result) Manifest(m datasets.Manifest) (datasets.Manifest, error) {
	cfg, err := json.Marshal(r.Config)
	if err != nil {
		return m, fmt.Errorf("selfplay: manifest: %w", err)
	}
	m.Kind, m.SchemaVersion = SamplesKind, SamplesSchemaVersion
	m.Files = append([]datasets.FileEntry(nil), r.Files...)
	m.Rows = 0
	s := r.Summary
	if m.Meta == nil {
		m.Meta = map[string]string{}
	}
	for k, v := range map[string]string{
		MetaNetConfig: string(cfg), MetaDW: strconv.Itoa(s.DW), MetaNextDW: strconv.Itoa(s.NextDW),
		"games": strconv.Itoa(s.Games), "living_wins": strconv.Itoa(s.LivingWins),
		"wins_within_dw": strconv.Itoa(s.WinsWithinDW), "undecided": strconv.Itoa(s.Undecided),
		"mean_length": strconv.FormatFloat(s.MeanLength, 'f', 2, 64), "simulations": strconv.Itoa(r.Simulations),
		"net": r.NetName, "games_file": r.GamesFile,
	} {
		m.Meta[k] = v
	}
	return m, nil
}

// Manifest meta keys that other stages read.
const (
	MetaNetConfig = "net_config" // nn.Config as JSON
	MetaDW        = "dw"         // the d_w the games were played under
	MetaNextDW    = "next_dw"    // the median game length: the next d_w
)
