package game

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"lifezero/internal/readfile"
)

// Problem is a life-and-death problem: a start position with its side to
// move and ko rules, each side's goal, the living side's crucial stones and
// the region where moves may be played.
type Problem struct {
	ID     string
	Source string // the file it was loaded from
	Start  *Position
	// Winner is the side that wins with correct play (the file's answer),
	// or Empty when the file does not say.
	Winner Color
	Goal   [3]Goal // indexed by Black and White
	// Crucial holds the living side's crucial stones (empty for live_any).
	Crucial PointSet
	// Region holds the points where moves may be played: every point when
	// the file gives no region.
	Region PointSet
	// FTLD is the d (moves-to-live) index the paper's network was queried
	// with (the SGF KM), or 0 when unknown.
	FTLD int
	// Answer is the book's first move for the side to play (Pass when the
	// side to play fails), or NoPoint when the file gives none.
	Answer Point
	// PaperNodes and RZTPaper hold the papers' node counts by method
	// ("-" = not solved within the papers' limits).
	PaperNodes map[string]string
	RZTPaper   map[string]string
}

// Living returns the side whose goal is to live.
func (pr *Problem) Living() Color {
	if pr.Goal[White].Living() {
		return White
	}
	return Black
}

// Killer returns the side whose goal is to kill.
func (pr *Problem) Killer() Color { return pr.Living().Opponent() }

// StartPosition returns a copy of the start position to play on.
func (pr *Problem) StartPosition() *Position { return pr.Start.Copy() }

// problemJSON is the layout of the problem files (../shared/README.md).
type problemJSON struct {
	ID            string            `json:"id"`
	SGF           string            `json:"sgf"`
	ToPlay        string            `json:"to_play"`
	Winner        string            `json:"winner"`
	Goal          map[string]string `json:"goal"`
	Ko            map[string]string `json:"ko"`
	CrucialStones string            `json:"crucial_stones"`
	Region        string            `json:"region"`
	FTLD          string            `json:"ftl_d"`
	Answer        string            `json:"answer_first_move"`
	PaperNodes    map[string]string `json:"paper_nodes"`
	RZTPaper      map[string]string `json:"rzt_paper"`
	// Kept for the record, not used: known so that an unknown (misspelt)
	// field can be refused.
	SourceFile string `json:"source_file"`
	BookSGF    string `json:"book_sgf"`
}

// LoadProblem reads a problem from a .json file of the problem sets, or from
// an .sgf file (position, PL, TR crucial stones, MA region, KM = ftl_d). For
// an SGF without goals the conventions of the problem sets apply: with TR
// the owner of the marked stones lives and the other side kills; without,
// on an empty-setup board the position is a kill-all game (White lives).
// In both cases the living side may not win through ko (disallow_ko).
func LoadProblem(path string) (*Problem, error) {
	ext := strings.ToLower(filepath.Ext(path))
	if ext != ".json" && ext != ".sgf" {
		return nil, fmt.Errorf("game: problem %s: want a .json or .sgf file", path)
	}
	data, err := readfile.Read(path, readfile.MaxProblem)
	if err != nil {
		return nil, fmt.Errorf("game: load problem: %w", err)
	}
	var pr *Problem
	if ext == ".json" {
		pr, err = problemFromJSON(data)
	} else {
		pr, err = problemFromSGF(string(data), true)
		if pr != nil && pr.ID == "" {
			pr.ID = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		}
	}
	if err != nil {
		return nil, fmt.Errorf("game: problem %s: %w", path, err)
	}
	pr.Source = path
	return pr, nil
}

// LoadProblemDir loads every problem of a directory, in file-name order: the
// .json files, or the .sgf files when there is no JSON beside them.
func LoadProblemDir(dir string) ([]*Problem, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("game: problem dir: %w", err)
	}
	haveJSON := map[string]bool{}
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".json") {
			haveJSON[strings.TrimSuffix(n, ".json")] = true
		}
	}
	var paths []string
	for _, e := range entries {
		n := e.Name()
		switch {
		case strings.HasSuffix(n, ".json") && n != "manifest.json":
			paths = append(paths, filepath.Join(dir, n))
		case strings.HasSuffix(n, ".sgf") && !haveJSON[strings.TrimSuffix(n, ".sgf")]:
			paths = append(paths, filepath.Join(dir, n))
		}
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		return nil, fmt.Errorf("game: problem dir %s holds no .json or .sgf problem", dir)
	}
	out := make([]*Problem, 0, len(paths))
	for _, p := range paths {
		pr, err := LoadProblem(p)
		if err != nil {
			return nil, err
		}
		out = append(out, pr)
	}
	return out, nil
}

func problemFromJSON(data []byte) (*Problem, error) {
	var f problemJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("malformed JSON: %w", err)
	}
	if dec.More() {
		return nil, errors.New("malformed JSON: more after the problem's object")
	}
	for _, m := range []struct {
		field string
		keys  map[string]string
	}{{"goal", f.Goal}, {"ko", f.Ko}} {
		for k := range m.keys {
			if k != Black.String() && k != White.String() {
				return nil, fmt.Errorf("field %q: unknown key %q (want \"B\" and \"W\")", m.field, k)
			}
		}
	}
	pr, err := problemFromSGF(f.SGF, false)
	if err != nil {
		return nil, fmt.Errorf("field \"sgf\": %w", err)
	}
	pr.ID = f.ID
	pr.PaperNodes, pr.RZTPaper = f.PaperNodes, f.RZTPaper
	for _, c := range []Color{Black, White} {
		g, ok := f.Goal[c.String()]
		if !ok {
			return nil, fmt.Errorf("field \"goal\": no goal for %v (want both \"B\" and \"W\")", c)
		}
		if pr.Goal[c], err = ParseGoal(g); err != nil {
			return nil, fmt.Errorf("field \"goal.%v\": %w", c, err)
		}
		if k, ok := f.Ko[c.String()]; ok {
			rule, err := parseKo(k)
			if err != nil {
				return nil, fmt.Errorf("field \"ko.%v\": %w", c, err)
			}
			pr.Start.SetKoRule(c, rule)
		}
	}
	if pr.Goal[Black].Living() == pr.Goal[White].Living() {
		return nil, fmt.Errorf("field \"goal\": exactly one side must live, got B=%v W=%v", pr.Goal[Black], pr.Goal[White])
	}
	if f.ToPlay != "" {
		c, err := ParseColor(f.ToPlay)
		if err != nil {
			return nil, fmt.Errorf("field \"to_play\": %w", err)
		}
		if c != pr.Start.ToMove() {
			return nil, fmt.Errorf("field \"to_play\" says %v but the position has %v to play", c, pr.Start.ToMove())
		}
	}
	if f.Winner != "" {
		if pr.Winner, err = ParseColor(f.Winner); err != nil {
			return nil, fmt.Errorf("field \"winner\": %w", err)
		}
	}
	if err := pr.setPoints(f); err != nil {
		return nil, err
	}
	return pr, pr.validate(true)
}

// setPoints reads the JSON's crucial stones, region, ftl_d and answer, which
// override what the SGF said.
func (pr *Problem) setPoints(f problemJSON) error {
	var err error
	if f.CrucialStones != "" {
		if pr.Crucial, err = pr.parsePointList(f.CrucialStones); err != nil {
			return fmt.Errorf("field \"crucial_stones\": %w", err)
		}
	}
	if f.Region != "" {
		if pr.Region, err = pr.parsePointList(f.Region); err != nil {
			return fmt.Errorf("field \"region\": %w", err)
		}
	}
	if f.FTLD != "" {
		d, err := strconv.ParseInt(f.FTLD, 10, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return fmt.Errorf("field \"ftl_d\": %q is not a number", f.FTLD)
		}
		if err := checkFTLD(d, pr.Start.Size()); err != nil {
			return fmt.Errorf("field \"ftl_d\": %s %w", f.FTLD, err)
		}
		pr.FTLD = int(d)
	}
	pr.Answer = NoPoint
	if f.Answer != "" {
		if pr.Answer, err = pr.Start.ParsePoint(f.Answer); err != nil {
			return fmt.Errorf("field \"answer_first_move\": %w", err)
		}
	}
	return nil
}

func (pr *Problem) parsePointList(s string) (PointSet, error) {
	var set PointSet
	for _, v := range strings.Split(s, ",") {
		p, err := pr.Start.ParsePoint(strings.TrimSpace(v))
		if err != nil {
			return set, err
		}
		if p == Pass {
			return set, fmt.Errorf("%q is a pass, not a point", v)
		}
		set.Add(p)
	}
	return set, nil
}

func parseKo(s string) (KoRule, error) {
	switch s {
	case "allow_ko":
		return PositionalSuperko, nil
	case "disallow_ko":
		return NoKoCapture, nil
	}
	return SimpleKo, fmt.Errorf("unknown ko rule %q (want allow_ko or disallow_ko)", s)
}

// checkFTLD checks an ftl_d: a move number by which the living side must
// live, so at least 1 and, on a board of size x size points, at most twice
// that many (far beyond any real problem, and it keeps d well inside the
// int32 the datasets store it in).
func checkFTLD(d int64, size int) error {
	if hi := int64(2 * size * size); d < 1 || d > hi {
		return fmt.Errorf("is out of range: want 1..%d (a move number: at most twice the %d points of the %dx%d board)", hi, size*size, size, size)
	}
	return nil
}

// validate checks that the problem is consistent: crucial stones are stones
// of the living side, the region holds at least one empty point. Errors name
// the JSON fields, or with fromJSON false the SGF properties.
func (pr *Problem) validate(fromJSON bool) error {
	crucialField, regionField := "TR", "MA"
	if fromJSON {
		crucialField, regionField = `field "crucial_stones"`, `field "region"`
	}
	living := pr.Living()
	var err error
	pr.Crucial.ForEach(func(p Point) {
		if err == nil && pr.Start.At(p) != living {
			err = fmt.Errorf("%s: crucial stone %s is not a %v stone", crucialField, pr.Start.PointString(p), living)
		}
	})
	if err != nil {
		return err
	}
	if pr.Goal[living] == GoalLive && pr.Crucial.Empty() {
		return fmt.Errorf("goal \"live\" needs crucial stones (%s)", crucialField)
	}
	if pr.Region.Empty() {
		return fmt.Errorf("%s: the allowed region is empty", regionField)
	}
	empty := false
	pr.Region.ForEach(func(p Point) { empty = empty || pr.Start.At(p) == Empty })
	if !empty {
		return fmt.Errorf("%s: every point of the region is occupied, so no move can be played", regionField)
	}
	return nil
}
