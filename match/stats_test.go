package match

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestWilson(t *testing.T) {
	for _, tt := range []struct {
		p         float64
		n         int
		low, high float64
	}{
		// Reference values: R's prop.test(correct = FALSE) / Wilson 1927.
		{0.5, 100, 0.40383, 0.59617},
		{0.0, 10, 0, 0.27753},
		{1.0, 10, 0.72247, 1},
		{0.2, 50, 0.11243, 0.33037},
		{0.5, 0, 0, 1},
	} {
		low, high := Wilson(tt.p, tt.n, z95)
		if math.Abs(low-tt.low) > 1e-4 || math.Abs(high-tt.high) > 1e-4 {
			t.Errorf("Wilson(%v, %d) = %.5f, %.5f; want %.5f, %.5f", tt.p, tt.n, low, high, tt.low, tt.high)
		}
	}
}

func TestElo(t *testing.T) {
	for _, tt := range []struct{ s, elo float64 }{
		{0.5, 0}, {0.75, 190.85}, {0.25, -190.85}, {10.0 / 11, 400}, {0, math.Inf(-1)}, {1, math.Inf(1)},
	} {
		if got := Elo(tt.s); math.Abs(got-tt.elo) > 0.01 && got != tt.elo {
			t.Errorf("Elo(%v) = %v, want %v", tt.s, got, tt.elo)
		}
	}
}

func TestSummarise(t *testing.T) {
	s := Summarise([]float64{1, 0, 0.5, 1})
	if s.Games != 4 || s.Wins != 2 || s.Losses != 1 || s.Draws != 1 || s.Score != 0.625 {
		t.Errorf("%+v", s)
	}
	if !(s.Low < s.Score && s.Score < s.High) || !(float64(s.EloLow) < float64(s.Elo) && float64(s.Elo) < float64(s.EloHigh)) {
		t.Errorf("interval does not hold the estimate: %v", s)
	}
	all := Summarise([]float64{0, 0, 0})
	data, err := json.Marshal(all)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"elo":null`) || !strings.Contains(all.String(), "Elo -inf") {
		t.Errorf("a lost match: %s / %s", data, all)
	}
	if none := Summarise(nil); none.Games != 0 || !strings.Contains(none.String(), "n/a") {
		t.Errorf("no games: %v", none)
	}
}

func TestParseScore(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"B+3.5", 3.5, true}, {"W+0.5", -0.5, true}, {"0", 0, true}, {" W+12 ", -12, true}, {"b+1", 1, true},
		{"B+", 0, false}, {"X+1", 0, false}, {"B+R", 0, false}, {"", 0, false}, {"3.5", 0, false},
	} {
		got, err := ParseScore(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseScore(%q) = %v, %v; want %v ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}
