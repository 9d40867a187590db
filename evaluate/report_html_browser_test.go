package evaluate

import (
	"context"
	"fmt"
	"image"
	_ "image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// chromiumPath is Debian's chromium (apt-get install -y chromium).
const chromiumPath = "/usr/bin/chromium"

// browserCheckScript runs in the page once it has loaded and writes what
// the browser made of it into <pre id="lzcheck">: the tables, the text of
// the overview table's first body cell, and each image's decoded size.
const browserCheckScript = `<script>
window.addEventListener("load", function () {
  var out = ["tables=" + document.getElementsByTagName("table").length];
  var td = document.querySelector("table td");
  out.push("firstcell=" + (td ? td.textContent : ""));
  for (var i = 0; i < document.images.length; i++) {
    var im = document.images[i];
    out.push("img=" + im.alt.replace(/ /g, "_") + ":" + im.naturalWidth + "x" + im.naturalHeight);
  }
  var p = document.createElement("pre");
  p.id = "lzcheck";
  p.textContent = out.join("\n");
  document.body.appendChild(p);
});
</script>`

// TestHTMLReportInBrowser builds a report with real plots and tables, loads
// report.html in headless chromium and checks that the browser finds every
// table and decodes every image at the size the PNG files have.
func TestHTMLReportInBrowser(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("%s not found (apt-get install -y chromium): %v", chromiumPath, err)
	}
	root := t.TempDir()
	var inputs []ReportInput
	for i, name := range []string{"solve", "movepred"} {
		dir := filepath.Join(root, name)
		bar, err := SaveBarChart(dir, "bars", BarChart{Title: name, YLabel: "count", Categories: []string{"a", "b"},
			Groups: []BarGroup{{Name: "ours", Values: []float64{3, float64(5 + i)}}}})
		if err != nil {
			t.Fatal(err)
		}
		line, err := SaveLinePlot(dir, "curve", LinePlot{Title: name, Series: []Series{{Name: "s", X: []float64{1, 2, 3}, Y: []float64{3, 1, 2}}}})
		if err != nil {
			t.Fatal(err)
		}
		md := MarkdownTable([]string{"id", "nodes"}, [][]string{{"01", "120"}, {"02", "-"}}) + "\n" +
			Image(name+" bars", bar) + "\n\n" + Image(name+" curve", line) + "\n"
		if err := WriteSection(dir, "Section "+name, md); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, ReportInput{Stage: name, Dir: dir, Kind: "k", Rows: 2})
	}
	out := filepath.Join(root, "report")
	files, err := BuildReport(context.Background(), out, "browser test", inputs)
	if err != nil {
		t.Fatal(err)
	}
	if files[len(files)-1] != ReportHTMLFile {
		t.Fatalf("BuildReport wrote %v, want %s last", files, ReportHTMLFile)
	}
	want := map[string]string{} // alt -> size of the PNG as Go decodes it
	for _, in := range inputs {
		for _, f := range []string{"bars.png", "curve.png"} {
			w, h := pngSize(t, filepath.Join(in.Dir, ReportDir, f))
			want[in.Stage+"_"+strings.TrimSuffix(f, ".png")] = fmt.Sprintf("%dx%d", w, h)
		}
	}
	got := loadInBrowser(t, filepath.Join(out, ReportHTMLFile))
	if got["tables"] != "3" { // the overview and one per section
		t.Errorf("browser found %s tables, want 3", got["tables"])
	}
	if got["firstcell"] != "solve" {
		t.Errorf("overview's first cell %q, want %q", got["firstcell"], "solve")
	}
	for alt, size := range want {
		if got["img="+alt] != size {
			t.Errorf("image %q decoded as %q, want %s", alt, got["img="+alt], size)
		}
	}
	// The page must stand alone: no image may point at a file.
	page, err := os.ReadFile(filepath.Join(out, ReportHTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`src="[^d][^"]*"`).Find(page); m != nil {
		t.Errorf("report.html links a file: %s", m)
	}
}

func pngSize(t *testing.T, path string) (w, h int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, _, err := image.DecodeConfig(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return cfg.Width, cfg.Height
}

// loadInBrowser loads a copy of page with browserCheckScript in headless
// chromium and returns the script's findings: key=value lines, and for the
// images "img=ALT" -> "WxH".
func loadInBrowser(t *testing.T, page string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	probe := filepath.Join(dir, "probe.html")
	html := strings.Replace(string(data), "</body>", browserCheckScript+"\n</body>", 1)
	if err := os.WriteFile(probe, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromiumPath, "--headless", "--disable-gpu", "--no-sandbox", "--disable-dev-shm-usage",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--dump-dom", "file://"+probe)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	m := regexp.MustCompile(`(?s)<pre id="lzcheck">(.*?)</pre>`).FindSubmatch(dom)
	if m == nil {
		t.Fatalf("the check script left no result in the DOM (stderr: %s)", stderr.String())
	}
	got := map[string]string{}
	for _, line := range strings.Split(string(m[1]), "\n") {
		if rest, ok := strings.CutPrefix(line, "img="); ok {
			alt, size, _ := strings.Cut(rest, ":")
			got["img="+alt] = size
			continue
		}
		k, v, _ := strings.Cut(line, "=")
		got[k] = v
	}
	return got
}
