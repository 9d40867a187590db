package datasets

import (
	"strings"
	"unicode/utf8"
)

// span is a byte range [start, end) of an SGF file.
type span struct {
	start, end int
	junk       bool // text between game trees, not a game tree
}

// splitTrees cuts an SGF collection into its top-level game trees, so that
// one malformed game can be reported and skipped without losing the others.
// It only matches parentheses outside property values (where '\' escapes
// the next character); the sgf package parses each piece. Text before the
// first "(;" is ignored, as the sgf package does (mail headers and the
// like); other text between trees comes back as a junk span. An unclosed
// tree or value runs to the end of the file.
func splitTrees(src string) []span {
	var spans []span
	pos, ok := nextTreeStart(src, 0)
	if !ok {
		if strings.TrimSpace(src) != "" {
			spans = append(spans, span{start: 0, end: len(src), junk: true})
		}
		return spans
	}
	for {
		pos = skipSpace(src, pos)
		if pos >= len(src) {
			return spans
		}
		if src[pos] != '(' {
			next, found := nextTreeStart(src, pos)
			if !found {
				next = len(src)
			}
			spans = append(spans, span{start: pos, end: next, junk: true})
			pos = next
			continue
		}
		end := treeEnd(src, pos)
		spans = append(spans, span{start: pos, end: end})
		pos = end
	}
}

// nextTreeStart finds the next '(' at or after from that is followed, after
// white space, by ';'.
func nextTreeStart(src string, from int) (int, bool) {
	for from < len(src) {
		i := strings.IndexByte(src[from:], '(')
		if i < 0 {
			return len(src), false
		}
		at := from + i
		if j := skipSpace(src, at+1); j < len(src) && src[j] == ';' {
			return at, true
		}
		from = at + 1
	}
	return len(src), false
}

// treeEnd returns the offset just after the ')' that closes the tree opened
// at src[start], or len(src).
func treeEnd(src string, start int) int {
	depth := 0
	for i := start; i < len(src); i++ {
		switch src[i] {
		case '[':
			i = valueEnd(src, i+1)
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(src)
}

// valueEnd returns the offset of the ']' closing a value that starts at i.
func valueEnd(src string, i int) int {
	for ; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case ']':
			return i
		}
	}
	return len(src)
}

func skipSpace(src string, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r' || src[i] == '\f' || src[i] == '\v') {
		i++
	}
	return i
}

// lineCounter converts byte offsets of one text to 1-based lines and
// columns (in runes), as the sgf package counts them: "\n", "\r\n" and a
// lone "\r" end a line. Offsets asked in increasing order cost one pass.
type lineCounter struct {
	src       string
	off       int // offset counted up to
	line      int
	lineStart int
}

func newLineCounter(src string) *lineCounter { return &lineCounter{src: src, line: 1} }

func (c *lineCounter) at(offset int) (line, column int) {
	offset = min(max(offset, 0), len(c.src))
	if offset < c.off {
		*c = lineCounter{src: c.src, line: 1}
	}
	for ; c.off < offset; c.off++ {
		switch c.src[c.off] {
		case '\r':
			if c.off+1 < len(c.src) && c.src[c.off+1] == '\n' {
				continue
			}
			fallthrough
		case '\n':
			c.line++
			c.lineStart = c.off + 1
		}
	}
	return c.line, utf8.RuneCountInString(c.src[c.lineStart:offset]) + 1
}
