package evaluate

import (
	"html"
	"strings"
)

// mdEscapable are the characters a backslash makes literal.
const mdEscapable = "\\`*_{}[]()#+-.!|<>~"

// inline converts the inline Markdown of one block's text to HTML.
func (c *mdConverter) inline(s string) (string, error) {
	var b strings.Builder
	var text strings.Builder // pending plain text, escaped when flushed
	flush := func() {
		b.WriteString(html.EscapeString(text.String()))
		text.Reset()
	}
	for i := 0; i < len(s); {
		switch ch := s[i]; {
		case ch == '\\' && i+1 < len(s) && strings.IndexByte(mdEscapable, s[i+1]) >= 0:
			text.WriteByte(s[i+1])
			i += 2
		case ch == '`':
			n := runOf(s[i:], '`')
			end := strings.Index(s[i+n:], s[i:i+n])
			if end < 0 {
				text.WriteString(s[i : i+n])
				i += n
				continue
			}
			flush()
			b.WriteString("<code>" + html.EscapeString(strings.TrimSpace(s[i+n:i+n+end])) + "</code>")
			i += 2*n + end
		case strings.HasPrefix(s[i:], "<br>"):
			flush()
			b.WriteString("<br>")
			i += len("<br>")
		case ch == '!' && strings.HasPrefix(s[i+1:], "["):
			alt, src, n, ok := linkAt(s[i+1:])
			if !ok {
				text.WriteByte(ch)
				i++
				continue
			}
			uri, err := c.image(src)
			if err != nil {
				return "", err
			}
			flush()
			b.WriteString(`<img src="` + html.EscapeString(uri) + `" alt="` + html.EscapeString(unescapeMD(alt)) + `">`)
			i += 1 + n
		case ch == '[':
			label, href, n, ok := linkAt(s[i:])
			if !ok {
				text.WriteByte(ch)
				i++
				continue
			}
			inner, err := c.inline(label)
			if err != nil {
				return "", err
			}
			flush()
			b.WriteString(`<a href="` + html.EscapeString(href) + `">` + inner + "</a>")
			i += n
		case ch == '*' && strings.HasPrefix(s[i:], "**"):
			end := strings.Index(s[i+2:], "**")
			if end <= 0 {
				text.WriteString("**")
				i += 2
				continue
			}
			inner, err := c.inline(s[i+2 : i+2+end])
			if err != nil {
				return "", err
			}
			flush()
			b.WriteString("<strong>" + inner + "</strong>")
			i += 4 + end
		case ch == '*' && i+1 < len(s) && s[i+1] != ' ':
			end := strings.IndexByte(s[i+1:], '*')
			if end <= 0 || s[i+end] == ' ' {
				text.WriteByte(ch)
				i++
				continue
			}
			inner, err := c.inline(s[i+1 : i+1+end])
			if err != nil {
				return "", err
			}
			flush()
			b.WriteString("<em>" + inner + "</em>")
			i += 2 + end
		default:
			text.WriteByte(ch)
			i++
		}
	}
	flush()
	return b.String(), nil
}

// runOf counts the leading bytes of s equal to ch.
func runOf(s string, ch byte) int {
	n := 0
	for n < len(s) && s[n] == ch {
		n++
	}
	return n
}

// linkAt parses "[label](target)" at the start of s, with escaped brackets
// in the label; n is its length.
func linkAt(s string) (label, target string, n int, ok bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			depth++
		case ']':
			depth--
			if depth > 0 {
				continue
			}
			if !strings.HasPrefix(s[i+1:], "(") {
				return "", "", 0, false
			}
			end := strings.IndexByte(s[i+2:], ')')
			if end < 0 {
				return "", "", 0, false
			}
			return s[1:i], strings.TrimSpace(s[i+2 : i+2+end]), i + 3 + end, true
		}
	}
	return "", "", 0, false
}

// unescapeMD drops the backslashes of escaped characters (alt text).
func unescapeMD(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(mdEscapable, s[i+1]) >= 0 {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
