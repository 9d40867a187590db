package evaluate

import (
	"context"
	"errors"
	"image"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestSectionRoundTrip(t *testing.T) {
	dir := t.TempDir()
	if HasSection(dir) {
		t.Fatal("HasSection on an empty dir")
	}
	if _, err := ReadSection(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadSection of nothing: %v, want fs.ErrNotExist", err)
	}
	body := "Some text.\n\n" + Image("loss [train]", "loss.png") + "\n"
	if err := WriteSection(dir, "  Training  ", body); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSection(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Title != "Training" || s.Markdown != strings.TrimSpace(body) {
		t.Errorf("read back %q / %q", s.Title, s.Markdown)
	}
	if !strings.Contains(s.Markdown, `![loss \[train\]](loss.png)`) {
		t.Errorf("image link not escaped: %q", s.Markdown)
	}
	for _, bad := range []string{"", "two\nlines"} {
		if err := WriteSection(dir, bad, "x"); err == nil {
			t.Errorf("WriteSection(title %q): no error", bad)
		}
	}
}

func TestMarkdownTable(t *testing.T) {
	got := MarkdownTable([]string{"id", "rate", "note"}, [][]string{
		{"01", "12.5%", "a|b"},
		{"02", "-", "line1\nline2"},
		{"03"},
	})
	want := "| id | rate | note |\n" +
		"| ---: | ---: | --- |\n" +
		"| 01 | 12.5% | a\\|b |\n" +
		"| 02 | - | line1<br>line2 |\n" +
		"| 03 |  |  |\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if MarkdownTable(nil, nil) != "" {
		t.Error("empty table is not empty")
	}
}

// decodePNG checks that path is a PNG of the plot size that is not blank.
func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	w, h := int(PlotWidth.Points()*96/72+0.5), int(PlotHeight.Points()*96/72+0.5)
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Errorf("%s: %dx%d, want %dx%d", path, b.Dx(), b.Dy(), w, h)
	}
	dark := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if r, g, bb, _ := img.At(x, y).RGBA(); r+g+bb < 3*0x8000 {
				dark++
			}
		}
	}
	if dark < 500 {
		t.Errorf("%s: only %d dark pixels: blank plot?", path, dark)
	}
	return img
}

func TestPlots(t *testing.T) {
	dir := t.TempDir()
	line := LinePlot{Title: "loss", XLabel: "step", YLabel: "loss", LogY: true, Series: []Series{
		{Name: "train", X: []float64{0, 1, 2, 3}, Y: []float64{2, 1, 0.5, 0.25}},
		{Name: "val", X: []float64{0, 1, 2, 3}, Y: []float64{2.5, 1.5, 0, 0.9}}, // 0 dropped on the log axis
	}}
	bars := BarChart{Title: "solve rate", YLabel: "%", Categories: []string{"7x7", "19x19"},
		Groups: []BarGroup{{Name: "rzs", Values: []float64{100, 60}}, {Name: "plain", Values: []float64{40, 5}}}}
	scatter := ScatterPlot{Title: "nodes", XLabel: "paper", YLabel: "ours", LogX: true, LogY: true, Diagonal: true,
		Series: []Series{{Name: "7x7", X: []float64{325, 1e4, 5e5, -1}, Y: []float64{300, 2e4, 1e5, 7}}}}
	single := ScatterPlot{Title: "one point", LogX: true, LogY: true, Series: []Series{{Name: "a", X: []float64{1}, Y: []float64{1}}}}

	for name, save := range map[string]func() (string, error){
		"line":    func() (string, error) { return SaveLinePlot(dir, "line", line) },
		"bars":    func() (string, error) { return SaveBarChart(dir, "bars", bars) },
		"scatter": func() (string, error) { return SaveScatterPlot(dir, "scatter", scatter) },
		"single":  func() (string, error) { return SaveScatterPlot(dir, "single", single) },
	} {
		file, err := save()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if file != name+".png" {
			t.Errorf("%s: file %q", name, file)
		}
		decodePNG(t, filepath.Join(dir, ReportDir, file))
	}
}

func TestPlotErrors(t *testing.T) {
	dir := t.TempDir()
	for name, save := range map[string]func() (string, error){
		"length mismatch": func() (string, error) {
			return SaveLinePlot(dir, "a", LinePlot{Series: []Series{{Name: "s", X: []float64{1, 2}, Y: []float64{1}}}})
		},
		"no points": func() (string, error) {
			return SaveLinePlot(dir, "b", LinePlot{Series: []Series{{Name: "s"}}})
		},
		"only non-positive on log": func() (string, error) {
			return SaveScatterPlot(dir, "c", ScatterPlot{LogY: true, Series: []Series{{X: []float64{1}, Y: []float64{0}}}})
		},
		"bars without categories": func() (string, error) { return SaveBarChart(dir, "d", BarChart{}) },
		"bars wrong count": func() (string, error) {
			return SaveBarChart(dir, "e", BarChart{Categories: []string{"x"}, Groups: []BarGroup{{Values: []float64{1, 2}}}})
		},
		"bad name": func() (string, error) {
			return SaveLinePlot(dir, "../x", LinePlot{Series: []Series{{X: []float64{1}, Y: []float64{1}}}})
		},
	} {
		if file, err := save(); err == nil {
			t.Errorf("%s: no error (file %q)", name, file)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, ReportDir)); len(entries) != 0 {
		t.Errorf("failed plots left files: %v", entries)
	}
}

func TestBuildReport(t *testing.T) {
	root := t.TempDir()
	stageA, stageB, stageC := filepath.Join(root, "a"), filepath.Join(root, "b"), filepath.Join(root, "c")
	// a: a section with two plots that share file names with b's.
	fa, err := SaveLinePlot(stageA, "curve", LinePlot{Title: "A", Series: []Series{{Name: "s", X: []float64{0, 1}, Y: []float64{1, 2}}}})
	if err != nil {
		t.Fatal(err)
	}
	fa2, err := SaveBarChart(stageA, "rates", BarChart{Categories: []string{"x", "y"}, Groups: []BarGroup{{Name: "g", Values: []float64{1, 3}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteSection(stageA, "Stage A results", "Alpha body.\n\n"+Image("curve", fa)+"\n\n"+Image("rates", "./"+fa2)); err != nil {
		t.Fatal(err)
	}
	fb, err := SaveScatterPlot(stageB, "curve", ScatterPlot{LogX: true, LogY: true, Series: []Series{{Name: "s", X: []float64{1, 10}, Y: []float64{2, 30}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteSection(stageB, "Stage B results", MarkdownTable([]string{"k", "v"}, [][]string{{"beta", "2"}})+"\n"+Image("b curve", fb)); err != nil {
		t.Fatal(err)
	}
	// c: no section.
	if err := os.MkdirAll(stageC, 0o755); err != nil {
		t.Fatal(err)
	}

	out := filepath.Join(root, "report")
	files, err := BuildReport(context.Background(), out, "Test report", []ReportInput{
		{Stage: "a", Dir: stageA, Kind: "games", Rows: 300},
		{Stage: "c", Dir: stageC, Kind: "lines", Rows: 1},
		{Stage: "b", Dir: stageB, Kind: "problems", Rows: 5},
	})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(out, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	md := string(data)
	for _, want := range []string{"# Test report", "## Stage A results", "Alpha body.", "## Stage B results", "| beta | 2 |",
		"| a | games | 300 | Stage A results |", "| c | lines | 1 | - |"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	if strings.Index(md, "Stage A results\n") > strings.Index(md, "## Stage B results") {
		t.Error("sections out of input order")
	}
	// Every image link resolves to a copied PNG of the right size.
	links := regexp.MustCompile(`!\[[^\]]*\]\(([^)]+)\)`).FindAllStringSubmatch(md, -1)
	if len(links) != 3 {
		t.Fatalf("%d image links, want 3:\n%s", len(links), md)
	}
	seen := map[string]bool{}
	for _, l := range links {
		seen[l[1]] = true
		decodePNG(t, filepath.Join(out, l[1]))
	}
	for _, want := range []string{"a-curve.png", "a-rates.png", "b-curve.png"} {
		if !seen[want] {
			t.Errorf("no link to %s (links %v)", want, seen)
		}
	}
	if len(files) != 5 || files[0] != ReportFile || files[4] != ReportHTMLFile {
		t.Errorf("files %v", files)
	}
}
