package evaluate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMarkdownHTML(t *testing.T) {
	img := func(src string) (string, error) {
		if src == "missing.png" {
			return "", errors.New("no such image")
		}
		return "data:image/png;base64,X" + src, nil
	}
	tests := []struct {
		name, md string
		want     []string // substrings of the output, in order
		not      []string
	}{
		{"headings", "# Title\n\n## Sec *one*\n### Sub", []string{"<h1>Title</h1>", "<h2>Sec <em>one</em></h2>", "<h3>Sub</h3>"}, nil},
		{"paragraph escapes", "a < b & c\nnext line", []string{"<p>a &lt; b &amp; c\nnext line</p>"}, nil},
		{"inline", "**bold** and `x<y` and \\[k\\] and [doc](a.md) and ftl_rz_d", []string{
			"<strong>bold</strong>", "<code>x&lt;y</code>", "[k]", `<a href="a.md">doc</a>`, "ftl_rz_d"}, []string{"<em>rz"}},
		{"table", MarkdownTable([]string{"id", "nodes", "note"}, [][]string{{"01", "12", "a|b"}, {"02", "-", "x\ny"}}), []string{
			"<table>", `<th class="r">nodes</th>`, `<td class="r">01</td>`, `<td class="r">12</td>`, "<td>a|b</td>", "<td>x<br>y</td>", "</table>"}, nil},
		{"table then text", "| a |\n| --- |\n| 1 |\nafter", []string{"<td>1</td>", "</table>\n<p>after</p>"}, nil},
		{"image", "See:\n\n" + Image("nodes [log]", "p.png") + "\n", []string{`<img src="data:image/png;base64,Xp.png" alt="nodes [log]">`}, nil},
		{"list", "- one\n  more\n- **two**\n\n1. first", []string{"<ul>\n<li>one\nmore</li>\n<li><strong>two</strong></li>\n</ul>", "<ol>\n<li>first</li>\n</ol>"}, nil},
		{"indented code", "Run:\n\n    go run ./x --a <b>\n\n    second\n\ntext", []string{"<pre><code>go run ./x --a &lt;b&gt;\n\nsecond</code></pre>", "<p>text</p>"}, nil},
		{"fenced code", "```\n| not | a table |\n**x**\n```", []string{"<pre><code>| not | a table |\n**x**</code></pre>"}, []string{"<table>", "<strong>"}},
		{"lone stars", "2 * 3 and a*", []string{"<p>2 * 3 and a*</p>"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := MarkdownHTML(tc.md, img)
			if err != nil {
				t.Fatal(err)
			}
			rest := got
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("missing (or out of order) %q in\n%s", w, got)
				}
				rest = rest[i+len(w):]
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("unexpected %q in\n%s", n, got)
				}
			}
		})
	}
	if _, err := MarkdownHTML("![x](missing.png)", img); err == nil || !strings.Contains(err.Error(), "no such image") {
		t.Errorf("missing image: err %v", err)
	}
}

func TestWriteHTMLReportErrors(t *testing.T) {
	dir := t.TempDir()
	if err := WriteHTMLReport(dir); err == nil {
		t.Error("no report.md: no error")
	}
	for _, tc := range []struct{ md, want string }{
		{"# T\n\n![a](gone.png)\n", "gone.png"},
		{"# T\n\n![a](../x.png)\n", "file name next to the report"},
		{"# T\n\n![a](plot.bmp)\n", "unknown image type"},
	} {
		if err := os.WriteFile(filepath.Join(dir, ReportFile), []byte(tc.md), 0o644); err != nil {
			t.Fatal(err)
		}
		err := WriteHTMLReport(dir)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), ReportFile) {
			t.Errorf("%q: err %v, want one naming %s and %q", tc.md, err, ReportFile, tc.want)
		}
	}
}
