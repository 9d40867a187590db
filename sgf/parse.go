package sgf

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"lifezero/internal/readfile"
)

// SyntaxError is a malformed SGF input: where it is and what was expected.
type SyntaxError struct {
	File   string // set by ParseFile
	Line   int    // 1-based; "\n", "\r\n" and a lone "\r" end a line
	Column int    // 1-based, in characters (UTF-8 runes)
	Offset int    // 0-based byte offset
	Msg    string
}

func (e *SyntaxError) Error() string {
	if e.File != "" {
		return fmt.Sprintf("sgf: %s: line %d, column %d: %s", e.File, e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("sgf: line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// Parse reads a whole SGF collection from r.
func Parse(r io.Reader) (Collection, error) {
	data, err := io.ReadAll(io.LimitReader(r, readfile.MaxSGF+1))
	if err != nil {
		return nil, fmt.Errorf("sgf: read: %w", err)
	}
	if len(data) > readfile.MaxSGF {
		return nil, fmt.Errorf("sgf: read: %w: more than %d bytes", readfile.ErrTooLarge, readfile.MaxSGF)
	}
	return ParseString(string(data))
}

// ParseString parses a whole SGF collection. Text before the first "(;" is
// ignored (mail headers and the like); after each game tree only white space
// or another game tree may follow.
func ParseString(s string) (Collection, error) {
	p := parser{src: s}
	return p.collection()
}

// ParseFile parses the SGF collection in the named file. A *SyntaxError it
// returns names the file.
func ParseFile(path string) (Collection, error) {
	data, err := readfile.Read(path, readfile.MaxSGF)
	if err != nil {
		return nil, fmt.Errorf("sgf: %w", err)
	}
	c, err := ParseString(string(data))
	if se, ok := errors.AsType[*SyntaxError](err); ok {
		se.File = path
	}
	return c, err
}

// parser scans src byte by byte. Most nodes hold one property with one
// value and one child, so each node lives in a cell that also holds room for
// exactly that: building a move node then costs no allocation of its own and
// no copying. Larger property and value lists are carved out of slabs. Every
// carved slice has its capacity capped, so appending to it never writes into
// a neighbour.
type parser struct {
	src string
	pos int

	stack    []openTree
	propBuf  []Property
	valBuf   []string
	cells    []nodeCell
	propSlab []Property
	valSlab  []string
	unescape []byte
}

// nodeCell is a node with in-line room for one property, one value and one
// child.
type nodeCell struct {
	node  Node
	props [1]Property
	vals  [1]string
	kids  [1]*Node
}

// openTree is a game tree whose ')' is still to come.
type openTree struct {
	open int       // offset of its '('
	last *nodeCell // last node of its sequence, where variations attach
}

const slabSize = 512

func (p *parser) collection() (Collection, error) {
	if !p.findStart() {
		if i := strings.IndexByte(p.src, '('); i >= 0 {
			p.pos = i + 1
			p.skipSpace()
			return nil, p.errorf("expected ';' after '(' to start a game tree, found %s", p.found())
		}
		p.pos = 0
		p.skipSpace()
		return nil, p.errorf("expected '(;' to start a game tree, found %s", p.found())
	}
	var c Collection
	for {
		root, err := p.gameTree()
		if err != nil {
			return nil, err
		}
		c = append(c, root)
		p.skipSpace()
		if p.pos >= len(p.src) {
			return c, nil
		}
		if p.src[p.pos] != '(' {
			return nil, p.errorf("expected '(' to start another game tree or end of input, found %s", p.found())
		}
	}
}

// findStart moves to the first '(' followed (after white space) by ';'.
func (p *parser) findStart() bool {
	for from := 0; from < len(p.src); {
		i := strings.IndexByte(p.src[from:], '(')
		if i < 0 {
			return false
		}
		p.pos = from + i + 1
		p.skipSpace()
		if p.pos < len(p.src) && p.src[p.pos] == ';' {
			p.pos = from + i
			return true
		}
		from += i + 1
	}
	return false
}

// gameTree parses "(" Sequence {GameTree} ")" with p.pos on the '('. It uses
// an explicit stack, so deeply nested variations cannot exhaust the Go stack.
func (p *parser) gameTree() (*Node, error) {
	stack := p.stack[:0]
	open := p.pos
	p.pos++
	root, last, err := p.sequence()
	if err != nil {
		return nil, err
	}
	stack = append(stack, openTree{open: open, last: last})
	for len(stack) > 0 {
		p.skipSpace()
		if p.pos >= len(p.src) {
			line, col := p.lineColumn(stack[len(stack)-1].open)
			return nil, p.errorf("expected ')' to close the game tree opened at line %d, column %d, found end of input", line, col)
		}
		switch p.src[p.pos] {
		case '(':
			open := p.pos
			p.pos++
			first, last, err := p.sequence()
			if err != nil {
				return nil, err
			}
			stack[len(stack)-1].last.addChild(first)
			stack = append(stack, openTree{open: open, last: last})
		case ')':
			p.pos++
			stack = stack[:len(stack)-1]
		default:
			return nil, p.errorf("expected '(' to start a variation or ')' to close the game tree, found %s", p.found())
		}
	}
	p.stack = stack
	return &root.node, nil
}

// sequence parses one or more nodes, each starting with ';'.
func (p *parser) sequence() (first, last *nodeCell, err error) {
	p.skipSpace()
	if p.pos >= len(p.src) || p.src[p.pos] != ';' {
		return nil, nil, p.errorf("expected ';' to start a node, found %s", p.found())
	}
	for p.pos < len(p.src) && p.src[p.pos] == ';' {
		p.pos++
		c := p.newCell()
		if err := p.properties(c); err != nil {
			return nil, nil, err
		}
		if first == nil {
			first = c
		} else {
			last.addChild(c)
		}
		last = c
		p.skipSpace()
	}
	return first, last, nil
}

// properties parses the properties of a node up to the next ';', '(' or ')'.
func (p *parser) properties(c *nodeCell) error {
	var props []Property // used once a second property comes
	count := 0
	for {
		p.skipSpace()
		if p.pos >= len(p.src) {
			break
		}
		ch := p.src[p.pos]
		if ch == ';' || ch == '(' || ch == ')' {
			break
		}
		if !isLetter(ch) {
			return p.errorf("expected a property identifier, ';', '(' or ')', found %s", p.found())
		}
		id, err := p.identifier()
		if err != nil {
			return err
		}
		values, err := p.values(id, c)
		if err != nil {
			return err
		}
		switch count {
		case 0:
			// Field by field: a struct assignment here goes through the
			// runtime's bulk write barrier, which costs more than the parse.
			c.props[0].ID = id
			c.props[0].Values = values
		case 1:
			props = append(p.propBuf[:0], c.props[0], Property{ID: id, Values: values})
		default:
			props = append(props, Property{ID: id, Values: values})
		}
		count++
	}
	switch count {
	case 0:
	case 1:
		c.node.Properties = c.props[:1:1]
	default:
		c.node.Properties = p.keepProps(props)
		p.propBuf = props[:0]
	}
	return nil
}

// identifier parses a PropIdent with p.pos on a letter.
func (p *parser) identifier() (string, error) {
	start := p.pos
	for p.pos < len(p.src) && isLetter(p.src[p.pos]) {
		p.pos++
	}
	id := p.src[start:p.pos]
	if !hasLower(id) {
		return id, nil
	}
	// FF[1]-FF[3] allowed lower-case letters in identifiers, to be ignored:
	// AddBlack is AB.
	if upper := upperOnly(id); upper != "" {
		return upper, nil
	}
	p.pos = start
	return "", p.errorf("property identifier %q has no upper-case letter", id)
}

// values parses PropValue {PropValue} after an identifier. A single value
// goes in the cell when its slot is free.
func (p *parser) values(id string, c *nodeCell) ([]string, error) {
	p.skipSpace()
	if p.pos >= len(p.src) || p.src[p.pos] != '[' {
		return nil, p.errorf("expected '[' to start a value of property %q, found %s", id, p.found())
	}
	first, err := p.value(id)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos >= len(p.src) || p.src[p.pos] != '[' {
		if c.props[0].Values == nil {
			c.vals[0] = first
			return c.vals[:1:1], nil
		}
		return p.keepValues(append(p.valBuf[:0], first)), nil
	}
	vals := append(p.valBuf[:0], first)
	for p.pos < len(p.src) && p.src[p.pos] == '[' {
		v, err := p.value(id)
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
		p.skipSpace()
	}
	p.valBuf = vals[:0]
	return p.keepValues(vals), nil
}

// value parses one "[...]" with p.pos on the '[' and returns it unescaped.
func (p *parser) value(id string) (string, error) {
	open := p.pos
	p.pos++
	rest := p.src[p.pos:]
	if end := strings.IndexByte(rest, ']'); end >= 0 && strings.IndexByte(rest[:end], '\\') < 0 {
		p.pos += end + 1
		return rest[:end], nil // no escapes: share the source text
	}
	buf := p.unescape[:0]
	for i := p.pos; i < len(p.src); {
		c := p.src[i]
		switch {
		case c == ']':
			p.pos = i + 1
			p.unescape = buf
			return string(buf), nil
		case c == '\\' && i+1 < len(p.src):
			i = p.escaped(i+1, &buf)
		default:
			buf = append(buf, c)
			i++
		}
	}
	p.unescape = buf
	p.pos = len(p.src)
	line, col := p.lineColumn(open)
	return "", p.errorf("expected ']' to close the value of property %q opened at line %d, column %d, found end of input", id, line, col)
}

// escaped handles the character at i, which follows a backslash: a line
// break ("\n", "\r\n", "\n\r" or "\r") is dropped, as FF[4] says of soft line
// breaks; anything else is kept literally. It returns the next offset.
func (p *parser) escaped(i int, buf *[]byte) int {
	c := p.src[i]
	if c != '\n' && c != '\r' {
		*buf = append(*buf, c)
		return i + 1
	}
	i++
	if i < len(p.src) && (p.src[i] == '\n' || p.src[i] == '\r') && p.src[i] != c {
		i++
	}
	return i
}

func (p *parser) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\n', '\r', '\t', '\v', '\f':
			p.pos++
		default:
			return
		}
	}
}

// found describes what is at p.pos, for error messages.
func (p *parser) found() string {
	if p.pos >= len(p.src) {
		return "end of input"
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return fmt.Sprintf("%q", r)
}

func (p *parser) errorf(format string, args ...any) *SyntaxError {
	line, col := p.lineColumn(p.pos)
	return &SyntaxError{Line: line, Column: col, Offset: p.pos, Msg: fmt.Sprintf(format, args...)}
}

// lineColumn converts a byte offset to a line and column. It is computed
// only when an error is reported, so the scanner does not count lines.
func (p *parser) lineColumn(offset int) (line, column int) {
	offset = min(offset, len(p.src))
	line, lineStart := 1, 0
	for i := 0; i < offset; i++ {
		switch p.src[i] {
		case '\r':
			if i+1 < len(p.src) && p.src[i+1] == '\n' {
				continue
			}
			fallthrough
		case '\n':
			line++
			lineStart = i + 1
		}
	}
	return line, utf8.RuneCountInString(p.src[lineStart:offset]) + 1
}

func (p *parser) newCell() *nodeCell {
	if len(p.cells) == 0 {
		p.cells = make([]nodeCell, slabSize)
	}
	c := &p.cells[0]
	p.cells = p.cells[1:]
	return c
}

func (p *parser) keepProps(props []Property) []Property {
	if len(props) == 0 {
		return nil
	}
	if len(props) > len(p.propSlab) {
		p.propSlab = make([]Property, max(slabSize, len(props)))
	}
	out := p.propSlab[:len(props):len(props)]
	copy(out, props)
	p.propSlab = p.propSlab[len(props):]
	return out
}

func (p *parser) keepValues(vals []string) []string {
	if len(vals) > len(p.valSlab) {
		p.valSlab = make([]string, max(slabSize, len(vals)))
	}
	out := p.valSlab[:len(vals):len(vals)]
	copy(out, vals)
	p.valSlab = p.valSlab[len(vals):]
	return out
}

// addChild appends child to the node's children, the first one in the
// cell's own slot.
func (c *nodeCell) addChild(child *nodeCell) {
	if len(c.node.Children) == 0 {
		c.kids[0] = &child.node
		c.node.Children = c.kids[:1:1]
		return
	}
	c.node.Children = append(c.node.Children, &child.node)
}

func isLetter(c byte) bool { return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' }

func hasLower(id string) bool {
	for i := 0; i < len(id); i++ {
		if 'a' <= id[i] && id[i] <= 'z' {
			return true
		}
	}
	return false
}

func upperOnly(id string) string {
	b := make([]byte, 0, len(id))
	for i := 0; i < len(id); i++ {
		if 'A' <= id[i] && id[i] <= 'Z' {
			b = append(b, id[i])
		}
	}
	return string(b)
}
