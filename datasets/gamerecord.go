package datasets

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"lifezero/sgf"
)

// gameFromTree turns one parsed SGF game tree into a games row (without
// Source). Game info is read from the root node, the moves from the main
// line; any value that cannot be interpreted is an error.
func gameFromTree(root *sgf.Node) (Game, error) {
	g := Game{BoardSize: 19}
	prop := func(id string) string { v, _ := root.Get(id); return strings.TrimSpace(v) }
	g.Date, g.Black, g.White = prop("DT"), prop("PB"), prop("PW")
	g.BlackRank, g.WhiteRank, g.Result = prop("BR"), prop("WR"), prop("RE")
	if v := prop("SZ"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > sgf.MaxBoardSize {
			return Game{}, fmt.Errorf("SZ[%s]: want a square board size 1..%d", v, sgf.MaxBoardSize)
		}
		g.BoardSize = int32(n)
	}
	if v := prop("KM"); v != "" {
		k, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return Game{}, fmt.Errorf("KM[%s]: not a number", v)
		}
		g.Komi = k
	}
	if v := prop("HA"); v != "" {
		h, err := strconv.Atoi(v)
		if err != nil || h < 0 {
			return Game{}, fmt.Errorf("HA[%s]: want a number of stones >= 0", v)
		}
		g.Handicap = int32(h)
	}
	moves, n, err := mainLineMoves(root, int(g.BoardSize))
	if err != nil {
		return Game{}, err
	}
	g.Moves, g.NumMoves = moves, int32(n)
	if err := checkCharset(root, &g); err != nil {
		return Game{}, err
	}
	g.GameID = gameID(g)
	return g, nil
}

// mainLineMoves writes the main line's moves as "B[pd];W[dp];...", values
// as in the file (a pass stays B[] or B[tt]), and checks every point.
func mainLineMoves(root *sgf.Node, size int) (string, int, error) {
	var b strings.Builder
	b.Grow(1024)
	n := 0
	for i, node := 0, root; node != nil; i, node = i+1, firstChild(node) {
		var color, value string
		for _, p := range node.Properties {
			if p.ID != "B" && p.ID != "W" {
				continue
			}
			if color != "" || len(p.Values) != 1 {
				return "", 0, fmt.Errorf("node %d of the main line: more than one move", i)
			}
			color, value = p.ID, p.Values[0]
		}
		if color == "" {
			continue
		}
		if _, _, _, err := sgf.ParsePoint(value, size); err != nil {
			return "", 0, fmt.Errorf("move %d %s[%s]: %w", n+1, color, value, err)
		}
		if n > 0 {
			b.WriteByte(';')
		}
		b.WriteString(color)
		b.WriteByte('[')
		b.WriteString(value)
		b.WriteByte(']')
		n++
	}
	return b.String(), n, nil
}

// gameID is a content hash of a game: the same record imported from any
// file gets the same id, so duplicates across collections can be found.
func gameID(g Game) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s\x00%s\x00%g\x00%d\x00%d\x00%s",
		g.Date, g.Black, g.White, g.BlackRank, g.WhiteRank, g.Result, g.Komi, g.BoardSize, g.Handicap, g.Moves)
	return hex.EncodeToString(h.Sum(nil)[:8])
}

func firstChild(n *sgf.Node) *sgf.Node {
	if len(n.Children) == 0 {
		return nil
	}
	return n.Children[0]
}
