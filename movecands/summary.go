package movecands

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"lifezero/datasets"
	"lifezero/features"
)

// Manifest Meta keys of a movecands dataset.
const (
	metaFeatureSet     = "feature_set" // the feature set, as features.WriteJSON writes it
	metaInputs         = "inputs"
	metaGamesRead      = "games_read"
	metaGamesInRange   = "games_in_range"
	metaGamesSampled   = "games_sampled"
	metaGamesUsed      = "games_used"
	metaPositions      = "positions"
	metaCandidates     = "candidates"
	metaNumFeatures    = "num_features"
	metaDiamonds       = "diamonds"
	metaShapes         = "shapes"
	metaFromDate       = "from_date"
	metaToDate         = "to_date"
	metaMaxGames       = "max_games"
	metaPerGame        = "positions_per_game"
	metaSeed           = "seed"
	metaOutOfRange     = "out_of_range."
	metaSkipped        = "skipped."
	summaryFormatCheck = metaGamesRead
)

// Summary says what Build did; it is stored in the manifest's Meta.
type Summary struct {
	Inputs     []string       // the games datasets read
	GamesRead  int            // games in the inputs
	OutOfRange map[string]int // games outside the date range, by datasets.Skip* reason
	InRange    int            // distinct games in the date range
	Sampled    int            // games sampled from those (MaxGames)
	Used       int            // sampled games that gave positions
	Skipped    map[string]int // games left out, by Skip* reason (duplicates among the games read, the others among the sampled)
	Positions  int64          // rows written
	Candidates int64          // candidate moves in all rows

	NumFeatures int // ids of the feature set
	Diamonds    int // diamonds in its vocabulary
	Shapes      int // shapes in its vocabulary

	Dates            datasets.DateRange
	MaxGames         int
	PositionsPerGame int
	Seed             uint64
}

func newSummary(inputs []string, opt Options) Summary {
	return Summary{
		Inputs: append([]string(nil), inputs...), OutOfRange: map[string]int{}, Skipped: map[string]int{},
		Dates: opt.Dates, MaxGames: opt.MaxGames, PositionsPerGame: opt.PositionsPerGame, Seed: opt.Seed,
	}
}

func (s Summary) meta() map[string]string {
	m := map[string]string{
		metaInputs:       strings.Join(s.Inputs, "\n"),
		metaGamesRead:    strconv.Itoa(s.GamesRead),
		metaGamesInRange: strconv.Itoa(s.InRange),
		metaGamesSampled: strconv.Itoa(s.Sampled),
		metaGamesUsed:    strconv.Itoa(s.Used),
		metaPositions:    strconv.FormatInt(s.Positions, 10),
		metaCandidates:   strconv.FormatInt(s.Candidates, 10),
		metaNumFeatures:  strconv.Itoa(s.NumFeatures),
		metaDiamonds:     strconv.Itoa(s.Diamonds),
		metaShapes:       strconv.Itoa(s.Shapes),
		metaFromDate:     s.Dates.From,
		metaToDate:       s.Dates.To,
		metaMaxGames:     strconv.Itoa(s.MaxGames),
		metaPerGame:      strconv.Itoa(s.PositionsPerGame),
		metaSeed:         strconv.FormatUint(s.Seed, 10),
	}
	for r, n := range s.OutOfRange {
		m[metaOutOfRange+r] = strconv.Itoa(n)
	}
	for r, n := range s.Skipped {
		m[metaSkipped+r] = strconv.Itoa(n)
	}
	return m
}

// SummaryOf reads the summary Build stored in a movecands manifest.
func SummaryOf(m *datasets.Manifest) (Summary, error) {
	if m.Kind != datasets.MoveCandsKind {
		return Summary{}, fmt.Errorf("movecands: a %q dataset, want %q", m.Kind, datasets.MoveCandsKind)
	}
	if _, ok := m.Meta[summaryFormatCheck]; !ok {
		return Summary{}, fmt.Errorf("movecands: the manifest holds no build summary")
	}
	s := Summary{OutOfRange: map[string]int{}, Skipped: map[string]int{},
		Dates: datasets.DateRange{From: m.Meta[metaFromDate], To: m.Meta[metaToDate]}}
	if in := m.Meta[metaInputs]; in != "" {
		s.Inputs = strings.Split(in, "\n")
	}
	ints := map[string]*int{metaGamesRead: &s.GamesRead, metaGamesInRange: &s.InRange, metaGamesSampled: &s.Sampled,
		metaGamesUsed: &s.Used, metaNumFeatures: &s.NumFeatures, metaDiamonds: &s.Diamonds, metaShapes: &s.Shapes,
		metaMaxGames: &s.MaxGames, metaPerGame: &s.PositionsPerGame}
	int64s := map[string]*int64{metaPositions: &s.Positions, metaCandidates: &s.Candidates}
	for k, v := range m.Meta {
		var err error
		switch {
		case ints[k] != nil:
			*ints[k], err = strconv.Atoi(v)
		case int64s[k] != nil:
			*int64s[k], err = strconv.ParseInt(v, 10, 64)
		case k == metaSeed:
			s.Seed, err = strconv.ParseUint(v, 10, 64)
		case strings.HasPrefix(k, metaOutOfRange):
			s.OutOfRange[k[len(metaOutOfRange):]], err = strconv.Atoi(v)
		case strings.HasPrefix(k, metaSkipped):
			s.Skipped[k[len(metaSkipped):]], err = strconv.Atoi(v)
		}
		if err != nil {
			return Summary{}, fmt.Errorf("movecands: manifest meta %s=%q: %w", k, v, err)
		}
	}
	return s, nil
}

// SkippedTotal is the number of games left out for any reason but the date.
func (s Summary) SkippedTotal() int {
	n := 0
	for _, k := range s.Skipped {
		n += k
	}
	return n
}

// Reasons returns the keys of a reason count, sorted.
func Reasons(counts map[string]int) []string {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// FeatureSet returns the feature set a movecands dataset was built with.
func FeatureSet(m *datasets.Manifest) (*features.Extractor, error) {
	set, ok := m.Meta[metaFeatureSet]
	if !ok {
		return nil, fmt.Errorf("movecands: the %q manifest holds no feature set", m.Kind)
	}
	e, err := features.ReadJSON(strings.NewReader(set))
	if err != nil {
		return nil, fmt.Errorf("movecands: the manifest's feature set: %w", err)
	}
	return e, nil
}

// featureSetJSON is the feature set as one line of JSON (a vocabulary of
// thousands of diamonds and shapes stays compact in the manifest).
func featureSetJSON(e *features.Extractor) (string, error) {
	var buf, compact bytes.Buffer
	if err := e.WriteJSON(&buf); err != nil {
		return "", fmt.Errorf("movecands: %w", err)
	}
	if err := json.Compact(&compact, buf.Bytes()); err != nil {
		return "", fmt.Errorf("movecands: %w", err)
	}
	return compact.String(), nil
}

// inputHash hashes what shapes a build's output: the options (every field
// not tagged json:"-"), the feature set and the files of every input
// dataset.
func inputHash(opt Options, set string, inputs []*datasets.Manifest) (string, error) {
	ih, err := datasets.NewInputHasher("movecands.Build", datasets.MoveCandsSchemaVersion, opt)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(ih, "feature set %s\n", set)
	for i, m := range inputs {
		fmt.Fprintf(ih, "input %d dataset %q schema %d\n", i, m.Kind, m.SchemaVersion)
		for _, f := range m.Files {
			ih.File(f.Name, f.Bytes, f.SHA256)
		}
	}
	return ih.Sum(), nil
}
