package datasets

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"

	"lifezero/sgf"
)

// SGF text values are in the charset that the root's CA names (FF[4]; the
// default is ISO-8859-1 by the standard, but in practice files without CA
// are UTF-8 or plain ASCII). The games dataset's string columns are Arrow
// UTF-8, so the import turns every file into UTF-8 text before parsing it:
//
//   - CA naming UTF-8 (or ASCII, or no CA): the bytes are kept; a game
//     whose stored values are then not valid UTF-8 is refused (malformed,
//     naming the property), not repaired: replacing bytes would store names
//     that are silently wrong, and a refused game is counted and reported.
//   - CA naming another charset that golang.org/x/text knows (GB2312, GBK,
//     Big5, EUC-KR, Shift_JIS, ISO-8859-1, ... by their WHATWG labels): the
//     text is decoded before parsing, so multi-byte characters whose second
//     byte is ']' or '\' cannot break the SGF syntax. Byte sequences that
//     are invalid in the declared charset come out as U+FFFD, the decoders'
//     replacement: the file said what it was and that part of it is not.
//   - CA naming a charset it does not know: the game is refused, naming
//     the CA value.
//
// When all game trees of a file declare the same charset the whole file is
// decoded; when they differ, each tree is decoded by its own CA.

// caRE finds CA property values in raw SGF text: "CA" not preceded by a
// letter (another property's identifier) or '\' (an escape inside a value).
var caRE = regexp.MustCompile(`(?:^|[^A-Za-z\\])CA\s*\[([^\]\\]*)\]`)

// charsetOf returns the encoding a CA value names: nil for UTF-8 (nothing
// to decode), ok false when x/text does not know it.
func charsetOf(ca string) (enc encoding.Encoding, ok bool) {
	label := strings.ToLower(strings.TrimSpace(ca))
	switch label {
	case "", "utf-8", "utf8", "us-ascii", "ascii":
		return nil, true
	}
	enc, err := htmlindex.Get(label)
	if err != nil {
		return nil, false
	}
	if name, _ := htmlindex.Name(enc); name == "utf-8" {
		return nil, true
	}
	return enc, true
}

// decodeSGF returns src as UTF-8 text for the SGF parser, decoding the
// charsets that its CA properties name (see above). Bytes it cannot decode
// are left for gameFromTree to refuse.
func decodeSGF(src string) string {
	cas := caRE.FindAllStringSubmatch(src, -1)
	if len(cas) == 0 {
		return src
	}
	first := cas[0][1]
	same := true
	for _, m := range cas[1:] {
		same = same && strings.EqualFold(strings.TrimSpace(m[1]), strings.TrimSpace(first))
	}
	if n := countTrees(src); same && (n <= 1 || len(cas) == n) {
		return decodeWith(src, first)
	}
	var b strings.Builder
	b.Grow(len(src))
	last := 0
	for _, sp := range splitTrees(src) {
		b.WriteString(src[last:sp.start])
		tree := src[sp.start:sp.end]
		if m := caRE.FindStringSubmatch(tree); m != nil && !sp.junk {
			tree = decodeWith(tree, m[1])
		}
		b.WriteString(tree)
		last = sp.end
	}
	b.WriteString(src[last:])
	return b.String()
}

func countTrees(src string) int {
	n := 0
	for _, sp := range splitTrees(src) {
		if !sp.junk {
			n++
		}
	}
	return n
}

// decodeWith decodes text from the charset ca names, or returns it as it
// is when that is UTF-8 or unknown.
func decodeWith(text, ca string) string {
	enc, ok := charsetOf(ca)
	if !ok || enc == nil {
		return text
	}
	out, err := enc.NewDecoder().String(text)
	if err != nil { // x/text's decoders replace bad input rather than fail
		return text
	}
	return out
}

// checkCharset refuses a game whose CA names a charset the import cannot
// decode, or whose game-info values (stored in UTF-8 columns) are not UTF-8.
func checkCharset(root *sgf.Node, g *Game) error {
	ca, hasCA := root.Get("CA")
	if _, ok := charsetOf(ca); hasCA && !ok {
		return fmt.Errorf("CA[%s]: unknown charset, so its text cannot be stored as UTF-8: convert the file to UTF-8 (e.g. iconv) or name a known charset (UTF-8, GB2312, GBK, Big5, EUC-KR, Shift_JIS, ISO-8859-1, ...)", ca)
	}
	for _, v := range []struct{ id, s string }{
		{"DT", g.Date}, {"PB", g.Black}, {"PW", g.White}, {"BR", g.BlackRank}, {"WR", g.WhiteRank}, {"RE", g.Result},
	} {
		if utf8.ValidString(v.s) {
			continue
		}
		i := 0
		for i < len(v.s) {
			r, n := utf8.DecodeRuneInString(v.s[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		declared := "the game has no CA[] naming its charset"
		if hasCA {
			declared = fmt.Sprintf("the game declares CA[%s]", ca)
		}
		return fmt.Errorf("%s: byte %d (0x%02x) is not valid UTF-8 and %s: add CA[...] with the file's charset (e.g. CA[GB2312]) or convert the file to UTF-8",
			v.id, i, v.s[i], declared)
	}
	return nil
}
