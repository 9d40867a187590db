package game

import "strings"

// Render draws the board as text with GTP coordinates: X and O are stones,
// '.' an empty point of the allowed region, '-' an empty point outside it,
// and crucial stones are shown as # (Black) or @ (White).
func (pr *Problem) Render() string {
	pos := pr.Start
	var sb strings.Builder
	sb.WriteString(pos.render(func(p Point) byte {
		c := pos.At(p)
		switch {
		case pr.Crucial.Has(p) && c == Black:
			return '#'
		case pr.Crucial.Has(p) && c == White:
			return '@'
		case c == Empty && !pr.Region.Has(p):
			return '-'
		}
		return stoneChar(c)
	}))
	living := pr.Living()
	sb.WriteString("X black, O white, # / @ crucial stones, . region, - outside the region\n")
	sb.WriteString("to play: " + pos.ToMove().String() + "   " +
		living.String() + ": " + pr.Goal[living].String() + "   " +
		living.Opponent().String() + ": " + pr.Goal[living.Opponent()].String() + "\n")
	return sb.String()
}

// String draws the position as text with GTP coordinates.
func (p *Position) String() string {
	return p.render(func(q Point) byte { return stoneChar(p.At(q)) })
}

func stoneChar(c Color) byte {
	switch c {
	case Black:
		return 'X'
	case White:
		return 'O'
	}
	return '.'
}

func (b *Board) render(cell func(Point) byte) string {
	var sb strings.Builder
	header := func() {
		sb.WriteString("   ")
		for x := 0; x < b.size; x++ {
			sb.WriteByte(' ')
			sb.WriteByte(gtpLetters[x])
		}
		sb.WriteByte('\n')
	}
	header()
	for y := 0; y < b.size; y++ {
		row := b.size - y
		if row < 10 {
			sb.WriteByte(' ')
		}
		sb.WriteString(itoa(row) + " ")
		for x := 0; x < b.size; x++ {
			sb.WriteByte(' ')
			sb.WriteByte(cell(b.Point(x, y)))
		}
		sb.WriteString("  " + itoa(row) + "\n")
	}
	header()
	return sb.String()
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return string([]byte{byte('0' + n/10), byte('0' + n%10)})
}
