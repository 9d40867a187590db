package recindex

import "cmp"

// ContStat counts the hits whose continuation was one move: a point of the
// pattern and the player (in the pattern's colours), or no continuation
// (None: no later move landed inside the matched rectangle).
type ContStat struct {
	X      int    `json:"x"` // column in the pattern as drawn, 0-based
	Y      int    `json:"y"` // row, 0-based
	Player Player `json:"player,omitempty"`
	None   bool   `json:"none,omitempty"`
	Count  int    `json:"count"`
	// Wins and Losses count the games the player of the move won and
	// lost; draws and unknown results count in neither.
	Wins   int `json:"wins"`
	Losses int `json:"losses"`
}

// Freq is the share of the hits with this continuation.
func (c ContStat) Freq(hits int) float64 {
	if hits == 0 {
		return 0
	}
	return float64(c.Count) / float64(hits)
}

// WinRate is the player's share of wins among the decided games (0 when
// none was decided).
func (c ContStat) WinRate() float64 {
	if c.Wins+c.Losses == 0 {
		return 0
	}
	return float64(c.Wins) / float64(c.Wins+c.Losses)
}

// compareConts ranks continuations: most frequent first, then none last
// among equals, then by player and point.
func compareConts(a, b ContStat) int {
	return cmp.Or(cmp.Compare(b.Count, a.Count), cmpBool(a.None, b.None),
		cmp.Compare(a.Player, b.Player), cmp.Compare(a.Y, b.Y), cmp.Compare(a.X, b.X))
}
