package match

import (
	"encoding/json"
	"fmt"
	"math"
)

// z95 is the standard normal quantile of a two-sided 95% interval.
const z95 = 1.959963984540054

// Stats summarises a match from engine A's side: draws count half a win.
type Stats struct {
	Games  int     `json:"games"`
	Wins   int     `json:"wins"`
	Losses int     `json:"losses"`
	Draws  int     `json:"draws"`
	Score  float64 `json:"score"` // (wins + draws/2) / games
	// Low and High bound the 95% Wilson score interval of the score.
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	// Elo is the rating difference A minus B that the score implies
	// (400·log10(s/(1-s))); EloLow and EloHigh map the Wilson bounds.
	// They are infinite when the bound is 0 or 1 (JSON null).
	Elo     JSONFloat `json:"elo"`
	EloLow  JSONFloat `json:"elo_low"`
	EloHigh JSONFloat `json:"elo_high"`
}

// JSONFloat is a float64 whose infinities and NaN encode as JSON null.
type JSONFloat float64

// MarshalJSON writes null for a value JSON cannot hold.
func (f JSONFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return []byte("null"), nil
	}
	return json.Marshal(v)
}

// Summarise computes the statistics of engine A's results (1 win, 0
// loss, 0.5 draw).
func Summarise(results []float64) Stats {
	var s Stats
	for _, r := range results {
		switch r {
		case 1:
			s.Wins++
		case 0:
			s.Losses++
		default:
			s.Draws++
		}
	}
	s.Games = len(results)
	if s.Games == 0 {
		s.Elo, s.EloLow, s.EloHigh = JSONFloat(math.NaN()), JSONFloat(math.NaN()), JSONFloat(math.NaN())
		s.High = 1
		return s
	}
	s.Score = (float64(s.Wins) + float64(s.Draws)/2) / float64(s.Games)
	s.Low, s.High = Wilson(s.Score, s.Games, z95)
	s.Elo, s.EloLow, s.EloHigh = JSONFloat(Elo(s.Score)), JSONFloat(Elo(s.Low)), JSONFloat(Elo(s.High))
	return s
}

// Wilson returns the Wilson score interval of a proportion p observed in
// n trials at normal quantile z.
func Wilson(p float64, n int, z float64) (low, high float64) {
	if n <= 0 {
		return 0, 1
	}
	nf := float64(n)
	z2 := z * z
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return max(0, centre-half), min(1, centre+half)
}

// Elo returns the rating difference whose expected score is s under the
// logistic Elo model: 400·log10(s/(1-s)); ±Inf at 1 and 0.
func Elo(s float64) float64 {
	switch {
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	return 400 * math.Log10(s/(1-s))
}

// String gives the summary on one line.
func (s Stats) String() string {
	return fmt.Sprintf("%d games: %d wins, %d losses, %d draws; score %.3f (95%% CI %.3f-%.3f); Elo %s (95%% CI %s to %s)",
		s.Games, s.Wins, s.Losses, s.Draws, s.Score, s.Low, s.High,
		FormatElo(float64(s.Elo)), FormatElo(float64(s.EloLow)), FormatElo(float64(s.EloHigh)))
}

// FormatElo writes a rating difference as "+12" or "-340", "+inf",
// "-inf" for the infinite ones and "n/a" for none.
func FormatElo(e float64) string {
	switch {
	case math.IsInf(e, 1):
		return "+inf"
	case math.IsInf(e, -1):
		return "-inf"
	case math.IsNaN(e):
		return "n/a"
	}
	return fmt.Sprintf("%+.0f", e)
}
