package pipelines

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lifezero/datasets"
)

const reportPipeline = `name: rep
stages:
  a:
    kind: reporter
  b:
    kind: emit
    inputs: [stage:a]
  g:
    kind: gather
    inputs: [stage:a]
`

// reportKinds adds to w's registry "reporter", whose data is always the same
// but whose report section, written after its manifest as real stages do,
// changes with every run (like the timings a real report holds), and
// "gather", which reads its inputs' report sections as the report kind does.
func reportKinds(t *testing.T, w *world) *Registry {
	t.Helper()
	reg := w.registry(t)
	count := func(stage string) int {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.runs[stage]++
		return w.runs[stage]
	}
	reporter := Kind{Name: "reporter", Version: 1, Run: func(ctx context.Context, env *Env) error {
		n := count(env.Stage)
		if err := os.WriteFile(filepath.Join(env.OutDir, "data.txt"), []byte("same data\n"), 0o644); err != nil {
			return err
		}
		fe, err := env.FileEntry("data.txt", 1)
		if err != nil {
			return err
		}
		if err := env.WriteManifest(&datasets.Manifest{Kind: "lines", SchemaVersion: 1, Files: []datasets.FileEntry{fe}}); err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(env.OutDir, ReportDir), 0o755); err != nil {
			return err
		}
		section := fmt.Sprintf("## a\n\nrun %d took %d ms\n", n, 10*n)
		return os.WriteFile(filepath.Join(env.OutDir, ReportDir, "section.md"), []byte(section), 0o644)
	}}
	gather := Kind{Name: "gather", Version: 1, ReadsReports: true, Run: func(ctx context.Context, env *Env) error {
		count(env.Stage)
		var b strings.Builder
		for _, in := range env.Inputs {
			s, err := os.ReadFile(filepath.Join(in.Path, ReportDir, "section.md"))
			if err != nil {
				return err
			}
			b.Write(s)
		}
		if err := os.WriteFile(filepath.Join(env.OutDir, "report.md"), []byte(b.String()), 0o644); err != nil {
			return err
		}
		fe, err := env.FileEntry("report.md", 1)
		if err != nil {
			return err
		}
		return env.WriteManifest(&datasets.Manifest{Kind: "report", SchemaVersion: 1, Files: []datasets.FileEntry{fe}})
	}}
	for _, k := range []Kind{reporter, gather} {
		if err := reg.Register(k); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

// A stage's report is listed under its manifest's checksums, so an edited or
// added report file is caught; and it is out of the input hash of the stages
// that read only data, so a rebuild whose data is byte-identical but whose
// report differs does not rerun them (a report-reading kind does rerun).
func TestReportChecksummedNotHashedDownstream(t *testing.T) {
	dir := t.TempDir()
	path := writePipeline(t, dir, reportPipeline)
	w := newWorld()
	reg := reportKinds(t, w)
	load := func() *Pipeline {
		p, err := Load(path, reg)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	checkStatuses(t, run(t, load(), RunOptions{}), map[string]Status{"a": StatusRan, "b": StatusRan, "g": StatusRan})
	aDir := filepath.Join(dir, "runs", "rep", "a")
	m, err := datasets.Verify(aDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Report) != 1 || m.Report[0].Name != "report/section.md" || len(m.Files) != 1 || m.Rows != 1 {
		t.Fatalf("manifest of a: files %+v, report %+v, rows %d; want data.txt in files and report/section.md in report",
			m.Files, m.Report, m.Rows)
	}

	// Rebuilt with identical data and another report: b keeps its cache.
	checkStatuses(t, run(t, load(), RunOptions{Force: []string{"a"}}),
		map[string]Status{"a": StatusRan, "b": StatusCached, "g": StatusRan})

	// An edited report section is caught by the manifest check, and the
	// stage is rebuilt; b still keeps its cache.
	section := filepath.Join(aDir, ReportDir, "section.md")
	if err := os.WriteFile(section, []byte("## a\n\nforged\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := datasets.Verify(aDir); err == nil || !strings.Contains(err.Error(), section) || !strings.Contains(err.Error(), "manifest says") {
		t.Errorf("Verify after editing the report: error %v, want one naming %s", err, section)
	}
	checkStatuses(t, run(t, load(), RunOptions{}), map[string]Status{"a": StatusRan, "b": StatusCached, "g": StatusRan})

	// So is a file added to the report.
	extra := filepath.Join(aDir, ReportDir, "extra.png")
	if err := os.WriteFile(extra, []byte("png"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := datasets.Verify(aDir); err == nil || !strings.Contains(err.Error(), extra) {
		t.Errorf("Verify after adding a report file: error %v, want one naming %s", err, extra)
	}
	checkStatuses(t, run(t, load(), RunOptions{}), map[string]Status{"a": StatusRan, "b": StatusCached, "g": StatusRan})
	if n := w.count("b"); n != 1 {
		t.Errorf("b ran %d times, want 1", n)
	}

	// A cached dataset whose manifest does not list its report (made before
	// manifests did, or killed before the runner listed it) gets it listed.
	m, err = datasets.ReadManifest(aDir)
	if err != nil {
		t.Fatal(err)
	}
	m.Report = nil
	if err := datasets.WriteManifest(aDir, m); err != nil {
		t.Fatal(err)
	}
	checkStatuses(t, run(t, load(), RunOptions{}), map[string]Status{"a": StatusCached, "b": StatusCached, "g": StatusCached})
	if m, err := datasets.Verify(aDir); err != nil || len(m.Report) != 1 {
		t.Errorf("cached a: report %+v, err %v; want report/section.md listed", m, err)
	}
}
