package evaluate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"lifezero/internal/atomicfile"
)

// ReportFile is the name of the report that BuildReport writes.
const ReportFile = "report.md"

// ReportInput is a stage whose report section goes into a report.
type ReportInput struct {
	Stage string // the stage's name
	Dir   string // its output directory
	Kind  string // its dataset kind, for the overview table
	Rows  int64
}

// BuildReport writes <outDir>/report.md: a title, an overview table of the
// inputs, then each input's section in the order given, with its images
// copied next to the report as <stage>-<file> and the links rewritten to
// match, and the same report as a self-contained page, report.html (see
// WriteHTMLReport). Inputs without a section appear in the overview only.
// It returns the files written (names relative to outDir), report.md first.
func BuildReport(ctx context.Context, outDir, title string, inputs []ReportInput) ([]string, error) {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, fmt.Errorf("evaluate: report: %w", err)
	}
	var b strings.Builder
	b.WriteString("# " + strings.TrimSpace(title) + "\n\n")
	var rows [][]string
	var sections []*Section
	var stages []string
	for _, in := range inputs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sec := "-"
		if HasSection(in.Dir) {
			s, err := ReadSection(in.Dir)
			if err != nil {
				return nil, fmt.Errorf("evaluate: report: stage %q: %w", in.Stage, err)
			}
			sections = append(sections, s)
			stages = append(stages, in.Stage)
			sec = s.Title
		}
		rows = append(rows, []string{in.Stage, in.Kind, fmt.Sprint(in.Rows), sec})
	}
	b.WriteString(MarkdownTable([]string{"stage", "dataset", "rows", "section"}, rows))
	files := []string{ReportFile}
	for i, s := range sections {
		md := s.Markdown
		for _, img := range s.Images {
			dst := stages[i] + "-" + img
			if err := copyFile(filepath.Join(s.Dir, img), filepath.Join(outDir, dst)); err != nil {
				return nil, fmt.Errorf("evaluate: report: stage %q: %w", stages[i], err)
			}
			files = append(files, dst)
			md = strings.ReplaceAll(md, "]("+img+")", "]("+dst+")")
			md = strings.ReplaceAll(md, "](./"+img+")", "]("+dst+")")
		}
		b.WriteString("\n## " + s.Title + "\n\n" + md + "\n")
	}
	if err := atomicfile.WriteFile(filepath.Join(outDir, ReportFile), []byte(b.String())); err != nil {
		return nil, err
	}
	if err := WriteHTMLReport(outDir); err != nil {
		return nil, err
	}
	return append(files, ReportHTMLFile), nil
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(dst, data)
}
