package datasets

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"lifezero/internal/readfile"
	"lifezero/sgf"
)

// importer is the state of one ImportRecords run.
type importer struct {
	opts  ImportOptions
	files []inputFile
	total int // input bytes
	done  int // input bytes of the files finished
	w     *Writer
	gb    *GameBuilder
	sum   ImportSummary
	ids   map[string]bool
	hash  *InputHasher
	// seen, when set (an append), holds the games already in the dataset:
	// a game equal to one of them, or to an earlier new one, is skipped.
	seen *seenGames
}

func newImporter(opts ImportOptions, files []inputFile) (*importer, error) {
	opts = opts.withDefaults()
	hash, err := newImportHash(opts)
	if err != nil {
		return nil, err
	}
	w, err := NewWriter(opts.OutDir, GamesSchema(), WriterOptions{MaxRowsPerFile: opts.RowsPerFile})
	if err != nil {
		return nil, err
	}
	return newImporterTo(opts, files, w, hash), nil
}

// withDefaults fills in the options' zero values.
func (opts ImportOptions) withDefaults() ImportOptions {
	if opts.RowsPerFile == 0 {
		opts.RowsPerFile = DefaultRowsPerFile
	}
	if opts.Workers == 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	if opts.Stage == "" {
		opts.Stage = "import-records"
	}
	return opts
}

// newImporterTo returns an importer writing to w (opts with defaults) and
// adding the files it reads to hash.
func newImporterTo(opts ImportOptions, files []inputFile, w *Writer, hash *InputHasher) *importer {
	imp := &importer{opts: opts, files: files, w: w, gb: NewGameBuilder(),
		sum: ImportSummary{Skipped: map[string]int{}}, ids: map[string]bool{}, hash: hash}
	for _, f := range files {
		imp.total += int(f.size)
	}
	return imp
}

// parsedFile is one input file cut into games.
type parsedFile struct {
	sha    string
	games  []parsedGame
	err    error  // fatal for the import
	src    string // the file's text
	starts []int  // offset of each game tree, by index; nil until needed
	lines  *lineCounter
}

// parsedGame is a game tree of a file: a game, or why it was skipped.
type parsedGame struct {
	game  Game
	skip  *SkippedGame // malformed, with SkipBad
	index int          // in the file's collection; -1 for stray text
	end   int          // byte offset after the tree (or an estimate), for progress
}

// position returns the line and column where game tree index starts, or
// (0, 0) if it cannot be found. Positions are only needed to report
// skipped games, so the trees are located on first use.
func (pf *parsedFile) position(index int) (line, column int) {
	if pf.starts == nil {
		pf.starts = []int{}
		for _, sp := range splitTrees(pf.src) {
			if !sp.junk {
				pf.starts = append(pf.starts, sp.start)
			}
		}
	}
	if index < 0 || index >= len(pf.starts) {
		return 0, 0
	}
	return pf.lines.at(pf.starts[index])
}

// run imports every file in order, parsing up to Workers files ahead.
func (imp *importer) run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	p := startParsers(ctx, imp.files, imp.opts.Workers, imp.opts.SkipBad)
	defer func() { cancel(); p.wg.Wait() }()
	imp.progress(0)
	for i, f := range imp.files {
		pf, err := p.take(ctx, i)
		if err != nil {
			return err
		}
		imp.sum.Files++
		imp.hash.File(f.rel, f.size, pf.sha)
		stop, err := imp.addGames(ctx, f, &pf)
		if err != nil || stop {
			return err
		}
		imp.done += int(f.size)
		imp.progress(0)
	}
	return nil
}

// parsers parses files on worker goroutines, each result into its own
// channel so the consumer takes them in order, with at most workers+1 files
// parsed and not yet taken (which bounds memory).
type parsers struct {
	results []chan parsedFile
	ahead   chan struct{} // a token per file dispatched and not yet taken
	wg      sync.WaitGroup
}

// startParsers starts parsing; cancel ctx, then wait on wg, to stop.
func startParsers(ctx context.Context, files []inputFile, workers int, skipBad bool) *parsers {
	p := &parsers{results: make([]chan parsedFile, len(files)), ahead: make(chan struct{}, workers+1)}
	for i := range p.results {
		p.results[i] = make(chan parsedFile, 1)
	}
	jobs := make(chan int)
	p.wg.Go(func() {
		defer close(jobs)
		for i := range files {
			select {
			case p.ahead <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	})
	for range workers {
		p.wg.Go(func() {
			for i := range jobs {
				p.results[i] <- parseInput(ctx, files[i], skipBad)
			}
		})
	}
	return p
}

// take waits for file i, which must be taken in order.
func (p *parsers) take(ctx context.Context, i int) (parsedFile, error) {
	select {
	case pf := <-p.results[i]:
		<-p.ahead
		return pf, pf.err
	case <-ctx.Done():
		return parsedFile{}, ctx.Err()
	}
}

// addGames writes the games of one file. stop reports that MaxGames is reached.
func (imp *importer) addGames(ctx context.Context, f inputFile, pf *parsedFile) (stop bool, err error) {
	for i, pg := range pf.games {
		imp.sum.Read++
		if pg.skip != nil {
			imp.skip(*pg.skip)
			continue
		}
		if reason := dateSkip(pg.game.Date, imp.opts.FromDate, imp.opts.ToDate); reason != "" {
			line, col := pf.position(pg.index)
			imp.skip(SkippedGame{File: f.path, Index: pg.index, Line: line, Column: col, Reason: reason,
				Err: fmt.Errorf("DT[%s]", pg.game.Date)})
			continue
		}
		if imp.seen != nil {
			if reason, first := imp.seen.find(pg.game); reason != "" {
				line, col := pf.position(pg.index)
				imp.skip(SkippedGame{File: f.path, Index: pg.index, Line: line, Column: col, Reason: reason,
					Err: fmt.Errorf("same as %s", first)})
				continue
			}
		}
		if err := imp.write(ctx, pg.game); err != nil {
			return false, err
		}
		if imp.opts.MaxGames > 0 && imp.sum.Written >= imp.opts.MaxGames {
			return true, nil
		}
		if i%512 == 511 {
			imp.progress(pg.end)
		}
	}
	return false, nil
}

func (imp *importer) write(ctx context.Context, g Game) error {
	imp.gb.Append(g)
	imp.sum.Written++
	if imp.ids[g.GameID] {
		imp.sum.Duplicates++
	}
	imp.ids[g.GameID] = true
	if imp.seen != nil {
		imp.seen.add(g)
	}
	if imp.gb.Len() < gameBatchRows {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return writeGameBatch(imp.w, imp.gb)
}

func (imp *importer) skip(s SkippedGame) {
	imp.sum.Skipped[s.Reason]++
	if imp.opts.OnSkip != nil {
		imp.opts.OnSkip(s)
	}
}

func (imp *importer) progress(inFile int) {
	if imp.opts.Progress != nil {
		imp.opts.Progress(imp.done+inFile, imp.total)
	}
}

// commit writes the last batch and the manifest.
func (imp *importer) commit() (*Manifest, error) {
	if imp.gb.Len() > 0 {
		if err := writeGameBatch(imp.w, imp.gb); err != nil {
			return nil, err
		}
	}
	inputHash := imp.opts.InputHash
	if inputHash == "" {
		inputHash = imp.hash.Sum()
	}
	return imp.w.Commit(Manifest{Kind: GamesKind, SchemaVersion: GamesSchemaVersion, Stage: imp.opts.Stage, InputHash: inputHash, Meta: imp.sum.meta(imp.opts)})
}

// parseInput reads and parses one SGF file. A file with a syntax error is
// an error, or with skipBad is parsed again tree by tree so that a malformed
// tree costs only itself.
func parseInput(ctx context.Context, f inputFile, skipBad bool) parsedFile {
	if err := ctx.Err(); err != nil {
		return parsedFile{err: err}
	}
	data, err := readfile.Read(f.path, readfile.MaxSGF)
	if err != nil {
		return parsedFile{err: fmt.Errorf("datasets: import: %w", err)}
	}
	src := decodeSGF(string(data)) // UTF-8 text, whatever CA[] the file declares
	pf := parsedFile{sha: sha256Hex(data), src: src, lines: newLineCounter(src)}
	coll, err := sgf.ParseString(src)
	se, isSyntax := errors.AsType[*sgf.SyntaxError](err)
	switch {
	case err == nil:
		pf.err = pf.addTrees(f, coll, skipBad)
	case !isSyntax:
		pf.err = fmt.Errorf("datasets: import %s: %w", f.path, err)
	case skipBad:
		pf.parseTreeByTree(f, se)
	default:
		pf.err = strictError(SkippedGame{File: f.path, Index: pf.treeAt(se.Offset), Line: se.Line, Column: se.Column,
			Reason: SkipMalformed, Err: errors.New(se.Msg)})
	}
	return pf
}

// addTrees converts the trees of a successfully parsed file.
func (pf *parsedFile) addTrees(f inputFile, coll sgf.Collection, skipBad bool) error {
	pf.games = make([]parsedGame, len(coll))
	for i, root := range coll {
		pg := parsedGame{index: i, end: int(int64(len(pf.src)) * int64(i+1) / int64(len(coll)))}
		g, err := gameFromTree(root)
		if err != nil {
			line, col := pf.position(i)
			bad := SkippedGame{File: f.path, Index: i, Line: line, Column: col, Reason: SkipMalformed, Err: err}
			if !skipBad {
				return strictError(bad)
			}
			pg.skip = &bad
		} else {
			g.Source = fmt.Sprintf("%s#%d", f.rel, i)
			pg.game = g
		}
		pf.games[i] = pg
	}
	return nil
}

// parseTreeByTree parses each game tree on its own, keeping the good ones
// and recording the malformed ones (and stray text between trees) as skips.
// If every piece parses on its own, the whole file's syntax error se is
// recorded instead, so that it is never lost.
func (pf *parsedFile) parseTreeByTree(f inputFile, se *sgf.SyntaxError) {
	pf.starts = []int{}
	index := 0
	for _, sp := range splitTrees(pf.src) {
		pg := parsedGame{index: -1, end: sp.end}
		var bad *SkippedGame
		if sp.junk {
			line, col := pf.lines.at(sp.start)
			bad = &SkippedGame{File: f.path, Index: -1, Line: line, Column: col, Reason: SkipMalformed,
				Err: errors.New("text outside any game tree")}
		} else {
			pf.starts = append(pf.starts, sp.start)
			pg.index = index
			g, errOffset, err := parseTree(pf.src[sp.start:sp.end])
			if err != nil {
				line, col := pf.lines.at(sp.start + errOffset)
				bad = &SkippedGame{File: f.path, Index: index, Line: line, Column: col, Reason: SkipMalformed, Err: err}
			} else {
				g.Source = fmt.Sprintf("%s#%d", f.rel, index)
				pg.game = g
			}
			index++
		}
		pg.skip = bad
		pf.games = append(pf.games, pg)
	}
	for _, pg := range pf.games {
		if pg.skip != nil {
			return
		}
	}
	pf.games = append(pf.games, parsedGame{index: -1, end: len(pf.src), skip: &SkippedGame{File: f.path, Index: -1,
		Line: se.Line, Column: se.Column, Reason: SkipMalformed, Err: errors.New(se.Msg)}})
}

// treeAt returns the index of the game tree holding byte offset, or -1.
func (pf *parsedFile) treeAt(offset int) int {
	index := -1
	for _, sp := range splitTrees(pf.src) {
		if sp.start > offset {
			break
		}
		if !sp.junk {
			index++
		} else if sp.end > offset {
			return -1
		}
	}
	return index
}

// parseTree parses one game tree's text. On error it returns the offset in
// text that the error is about.
func parseTree(text string) (Game, int, error) {
	coll, err := sgf.ParseString(text)
	if se, ok := errors.AsType[*sgf.SyntaxError](err); ok {
		return Game{}, se.Offset, errors.New(se.Msg)
	}
	if err != nil {
		return Game{}, 0, err
	}
	if len(coll) != 1 {
		return Game{}, 0, fmt.Errorf("found %d game trees where one was expected", len(coll))
	}
	g, err := gameFromTree(coll[0])
	return g, 0, err
}

func strictError(bad SkippedGame) error {
	what := fmt.Sprintf("game %d", bad.Index)
	if bad.Index < 0 {
		what = "between game trees"
	}
	return fmt.Errorf("datasets: import: %s:%d:%d: %s: %w (set SkipBad to skip and count malformed games)",
		bad.File, bad.Line, bad.Column, what, bad.Err)
}
