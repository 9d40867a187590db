package evaluate

import (
	"encoding/base64"
	"fmt"
	"html"
	"path/filepath"
	"regexp"
	"strings"

	"lifezero/internal/atomicfile"
	"lifezero/internal/readfile"
)

// ReportHTMLFile is the self-contained HTML page BuildReport writes beside
// report.md: the same report with its images inlined as data: URIs.
const ReportHTMLFile = "report.html"

// maxImageBytes bounds an image inlined into the HTML page (the plots are
// tens of kilobytes; a huge file is a mistake, not a plot).
const maxImageBytes = 32 << 20

// WriteHTMLReport converts <dir>/report.md into <dir>/report.html, a page
// that needs no other file: every image the Markdown links (a file in dir)
// is read and inlined as a data: URI.
func WriteHTMLReport(dir string) error {
	mdPath := filepath.Join(dir, ReportFile)
	md, err := readfile.Read(mdPath, readfile.MaxText)
	if err != nil {
		return fmt.Errorf("evaluate: html report: %w", err)
	}
	title := "lifezero report"
	if first, _, _ := strings.Cut(string(md), "\n"); strings.HasPrefix(first, "# ") {
		title = strings.TrimSpace(first[2:])
	}
	body, err := MarkdownHTML(string(md), func(src string) (string, error) {
		return imageDataURI(dir, src)
	})
	if err != nil {
		return fmt.Errorf("evaluate: html report from %s: %w", mdPath, err)
	}
	return atomicfile.WriteFile(filepath.Join(dir, ReportHTMLFile), []byte(htmlPage(title, body)))
}

// imageDataURI reads the image src (a plain file name inside dir, as the
// report links them) and returns it as a data: URI.
func imageDataURI(dir, src string) (string, error) {
	if src == "" || strings.ContainsAny(src, `/\`) || strings.HasPrefix(src, ".") {
		return "", fmt.Errorf("image %q: want a file name next to the report", src)
	}
	mime, ok := imageMIME[strings.ToLower(filepath.Ext(src))]
	if !ok {
		return "", fmt.Errorf("image %q: unknown image type (want .png, .svg, .jpg or .gif)", src)
	}
	data, err := readfile.Read(filepath.Join(dir, src), maxImageBytes)
	if err != nil {
		return "", fmt.Errorf("image %q: %w", src, err)
	}
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data), nil
}

var imageMIME = map[string]string{
	".png": "image/png", ".svg": "image/svg+xml", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
}

// htmlStyle keeps the page readable without any external file.
const htmlStyle = `body{font-family:sans-serif;max-width:75em;margin:1em auto;padding:0 1em;line-height:1.4;color:#222}
table{border-collapse:collapse;margin:0.8em 0;font-size:0.9em}
th,td{border:1px solid #bbb;padding:0.2em 0.5em}
th{background:#eee}
tr:nth-child(even) td{background:#f8f8f8}
td.r,th.r{text-align:right}
code{background:#f2f2f2;padding:0 0.2em}
pre{background:#f2f2f2;padding:0.6em;overflow-x:auto}
img{max-width:100%}
`

func htmlPage(title, body string) string {
	return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + html.EscapeString(title) +
		"</title>\n<style>\n" + htmlStyle + "</style>\n</head>\n<body>\n" + body + "</body>\n</html>\n"
}

// MarkdownHTML converts the Markdown the report sections are written in
// to HTML: ATX headings, paragraphs, GitHub tables (with their column
// alignment), "-" and "1." lists, fenced and indented code blocks, and
// inline code, **bold**, *italics*, links, images and <br> (the only raw
// HTML MarkdownTable writes). Everything else is text, escaped. image maps
// an image's link to the src the page uses (a data: URI); its error stops
// the conversion.
func MarkdownHTML(md string, image func(src string) (string, error)) (string, error) {
	c := mdConverter{lines: strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n"), image: image}
	for c.i < len(c.lines) {
		if err := c.block(); err != nil {
			return "", err
		}
	}
	return c.out.String(), nil
}

type mdConverter struct {
	lines []string
	i     int
	out   strings.Builder
	image func(string) (string, error)
}

var (
	headingRE   = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	listItemRE  = regexp.MustCompile(`^\s{0,3}([-*+]|\d+[.)])\s+(.*)$`)
	tableSepRE  = regexp.MustCompile(`^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$`)
	fenceOpenRE = regexp.MustCompile("^\\s{0,3}(```+|~~~+)")
)

// block converts the block that starts at the current line.
func (c *mdConverter) block() error {
	line := c.lines[c.i]
	switch {
	case strings.TrimSpace(line) == "":
		c.i++
		return nil
	case fenceOpenRE.MatchString(line):
		c.fencedCode()
		return nil
	case strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t"):
		c.indentedCode()
		return nil
	case headingRE.MatchString(line):
		m := headingRE.FindStringSubmatch(line)
		text, err := c.inline(m[2])
		if err != nil {
			return err
		}
		fmt.Fprintf(&c.out, "<h%d>%s</h%d>\n", len(m[1]), text, len(m[1]))
		c.i++
		return nil
	case c.tableStarts():
		return c.table()
	case listItemRE.MatchString(line):
		return c.list()
	}
	return c.paragraph()
}

// startsBlock reports whether line begins a block other than a paragraph.
func (c *mdConverter) startsBlock(j int) bool {
	line := c.lines[j]
	return strings.TrimSpace(line) == "" || fenceOpenRE.MatchString(line) || headingRE.MatchString(line) ||
		listItemRE.MatchString(line) || c.tableStartsAt(j)
}

func (c *mdConverter) tableStarts() bool { return c.tableStartsAt(c.i) }

// tableStartsAt: a row with a pipe followed by a delimiter row.
func (c *mdConverter) tableStartsAt(j int) bool {
	return j+1 < len(c.lines) && strings.Contains(c.lines[j], "|") && tableSepRE.MatchString(c.lines[j+1]) &&
		strings.Contains(c.lines[j+1], "-")
}

func (c *mdConverter) fencedCode() {
	fence := strings.TrimSpace(fenceOpenRE.FindString(c.lines[c.i]))
	c.i++
	var code []string
	for c.i < len(c.lines) && !strings.HasPrefix(strings.TrimSpace(c.lines[c.i]), fence) {
		code = append(code, c.lines[c.i])
		c.i++
	}
	c.i++ // the closing fence (or the end)
	c.out.WriteString("<pre><code>" + html.EscapeString(strings.Join(code, "\n")) + "</code></pre>\n")
}

func (c *mdConverter) indentedCode() {
	var code []string
	for c.i < len(c.lines) {
		line := c.lines[c.i]
		if strings.TrimSpace(line) == "" {
			// A blank line belongs to the block only if indented code follows.
			j := c.i
			for j < len(c.lines) && strings.TrimSpace(c.lines[j]) == "" {
				j++
			}
			if j == len(c.lines) || !(strings.HasPrefix(c.lines[j], "    ") || strings.HasPrefix(c.lines[j], "\t")) {
				break
			}
			for ; c.i < j; c.i++ {
				code = append(code, "")
			}
			continue
		}
		if !strings.HasPrefix(line, "    ") && !strings.HasPrefix(line, "\t") {
			break
		}
		if strings.HasPrefix(line, "\t") {
			code = append(code, line[1:])
		} else {
			code = append(code, line[4:])
		}
		c.i++
	}
	c.out.WriteString("<pre><code>" + html.EscapeString(strings.Join(code, "\n")) + "</code></pre>\n")
}

func (c *mdConverter) paragraph() error {
	var text []string
	for c.i < len(c.lines) {
		if len(text) > 0 && c.startsBlock(c.i) {
			break
		}
		text = append(text, strings.TrimSpace(c.lines[c.i]))
		c.i++
	}
	s, err := c.inline(strings.Join(text, "\n"))
	if err != nil {
		return err
	}
	c.out.WriteString("<p>" + s + "</p>\n")
	return nil
}

// list converts consecutive items of one list; a line indented under an
// item continues it.
func (c *mdConverter) list() error {
	tag := listTag(listItemRE.FindStringSubmatch(c.lines[c.i])[1])
	c.out.WriteString("<" + tag + ">\n")
	for c.i < len(c.lines) {
		m := listItemRE.FindStringSubmatch(c.lines[c.i])
		if m == nil || listTag(m[1]) != tag {
			break
		}
		item := []string{m[2]}
		c.i++
		for c.i < len(c.lines) {
			line := c.lines[c.i]
			if strings.TrimSpace(line) == "" || listItemRE.MatchString(line) || !strings.HasPrefix(line, " ") {
				break
			}
			item = append(item, strings.TrimSpace(line))
			c.i++
		}
		s, err := c.inline(strings.Join(item, "\n"))
		if err != nil {
			return err
		}
		c.out.WriteString("<li>" + s + "</li>\n")
		// A blank line between items of the same kind keeps the list going.
		if c.i+1 < len(c.lines) && strings.TrimSpace(c.lines[c.i]) == "" {
			if next := listItemRE.FindStringSubmatch(c.lines[c.i+1]); next != nil && listTag(next[1]) == tag {
				c.i++
			}
		}
	}
	c.out.WriteString("</" + tag + ">\n")
	return nil
}

// listTag is the HTML list of an item marker: ol for "1." or "1)".
func listTag(marker string) string {
	if marker[0] >= '0' && marker[0] <= '9' {
		return "ol"
	}
	return "ul"
}

// table converts a GitHub table: header row, delimiter row, body rows.
func (c *mdConverter) table() error {
	header := splitRow(c.lines[c.i])
	var align []string
	for _, d := range splitRow(c.lines[c.i+1]) {
		d = strings.TrimSpace(d)
		switch {
		case strings.HasPrefix(d, ":") && strings.HasSuffix(d, ":"):
			align = append(align, ` style="text-align:center"`)
		case strings.HasSuffix(d, ":"):
			align = append(align, ` class="r"`)
		default:
			align = append(align, "")
		}
	}
	c.i += 2
	cell := func(tag, text string, col int) error {
		s, err := c.inline(strings.TrimSpace(text))
		if err != nil {
			return err
		}
		a := ""
		if col < len(align) {
			a = align[col]
		}
		c.out.WriteString("<" + tag + a + ">" + s + "</" + tag + ">")
		return nil
	}
	c.out.WriteString("<table>\n<thead>\n<tr>")
	for j, h := range header {
		if err := cell("th", h, j); err != nil {
			return err
		}
	}
	c.out.WriteString("</tr>\n</thead>\n<tbody>\n")
	for c.i < len(c.lines) && strings.Contains(c.lines[c.i], "|") && strings.TrimSpace(c.lines[c.i]) != "" {
		c.out.WriteString("<tr>")
		row := splitRow(c.lines[c.i])
		for j := range header {
			text := ""
			if j < len(row) {
				text = row[j]
			}
			if err := cell("td", text, j); err != nil {
				return err
			}
		}
		c.out.WriteString("</tr>\n")
		c.i++
	}
	c.out.WriteString("</tbody>\n</table>\n")
	return nil
}

// splitRow splits a table row on its unescaped pipes, leaving out the
// outer ones; "\|" stays in the cell for inline to unescape.
func splitRow(line string) []string {
	s := strings.TrimSpace(line)
	s = strings.TrimPrefix(s, "|")
	if strings.HasSuffix(s, "|") && !strings.HasSuffix(s, `\|`) {
		s = s[:len(s)-1]
	}
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s):
			cur.WriteByte(s[i])
			cur.WriteByte(s[i+1])
			i++
		case s[i] == '|':
			cells = append(cells, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(s[i])
		}
	}
	return append(cells, cur.String())
}
