package evaluate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"lifezero/internal/atomicfile"
	"lifezero/internal/readfile"
)

// ReportDir is the subdirectory of a stage's output directory that holds its
// report section and plots (the pipeline runner clears it before a rerun).
const ReportDir = "report"

// SectionFile is the name of a stage's report section inside ReportDir.
const SectionFile = "section.md"

// WriteSection writes the report section of the stage whose output directory
// is outDir: <outDir>/report/section.md, a "## title" heading followed by
// markdown. Images the markdown links (Image) must lie in the same directory,
// as the plot helpers put them.
func WriteSection(outDir, title, markdown string) error {
	title = strings.TrimSpace(title)
	if title == "" || strings.Contains(title, "\n") {
		return fmt.Errorf("evaluate: section in %s: the title must be one non-empty line, got %q", outDir, title)
	}
	dir := filepath.Join(outDir, ReportDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("evaluate: write section: %w", err)
	}
	text := "## " + title + "\n\n" + strings.TrimSpace(markdown) + "\n"
	return atomicfile.WriteFile(filepath.Join(dir, SectionFile), []byte(text))
}

// Section is a stage's report section as read back by ReadSection.
type Section struct {
	Title    string
	Markdown string   // the body, without the heading
	Dir      string   // the directory holding the section and its images
	Images   []string // image files in Dir, sorted
}

// ReadSection reads the report section of the stage whose output directory is
// outDir. A stage without one gives an error wrapping fs.ErrNotExist.
func ReadSection(outDir string) (*Section, error) {
	dir := filepath.Join(outDir, ReportDir)
	data, err := readfile.Read(filepath.Join(dir, SectionFile), readfile.MaxText)
	if err != nil {
		return nil, fmt.Errorf("evaluate: read section: %w", err)
	}
	head, body, _ := strings.Cut(string(data), "\n")
	title, ok := strings.CutPrefix(head, "## ")
	if !ok {
		return nil, fmt.Errorf("evaluate: %s: the first line must be a \"## title\" heading", filepath.Join(dir, SectionFile))
	}
	s := &Section{Title: strings.TrimSpace(title), Markdown: strings.TrimSpace(body), Dir: dir}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("evaluate: read section: %w", err)
	}
	for _, e := range entries {
		if e.Type().IsRegular() && isImage(e.Name()) {
			s.Images = append(s.Images, e.Name())
		}
	}
	return s, nil
}

// HasSection reports whether the stage whose output directory is outDir
// wrote a report section.
func HasSection(outDir string) bool {
	_, err := os.Stat(filepath.Join(outDir, ReportDir, SectionFile))
	return !errors.Is(err, fs.ErrNotExist)
}

func isImage(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".png", ".svg", ".jpg", ".jpeg", ".gif":
		return !strings.HasPrefix(name, ".")
	}
	return false
}

// Image returns the Markdown that shows the image file (a name inside the
// section's directory, as the plot helpers return it) with alt text.
func Image(alt, file string) string {
	return "![" + escapeBrackets(alt) + "](" + file + ")"
}

func escapeBrackets(s string) string {
	return strings.NewReplacer("[", `\[`, "]", `\]`).Replace(s)
}

// MarkdownTable renders a GitHub-flavoured Markdown table. Rows shorter than
// the header are padded with empty cells; pipes and newlines in cells are
// escaped so a cell never breaks the table. Columns whose cells all parse as
// numbers are right-aligned.
func MarkdownTable(header []string, rows [][]string) string {
	n := len(header)
	for _, r := range rows {
		n = max(n, len(r))
	}
	if n == 0 {
		return ""
	}
	cell := func(r []string, i int) string {
		if i < len(r) {
			return escapeCell(r[i])
		}
		return ""
	}
	var b strings.Builder
	line := func(r []string) {
		b.WriteString("|")
		for i := 0; i < n; i++ {
			b.WriteString(" " + cell(r, i) + " |")
		}
		b.WriteString("\n")
	}
	line(header)
	b.WriteString("|")
	for i := 0; i < n; i++ {
		if numericColumn(rows, i) {
			b.WriteString(" ---: |")
		} else {
			b.WriteString(" --- |")
		}
	}
	b.WriteString("\n")
	for _, r := range rows {
		line(r)
	}
	return b.String()
}

func escapeCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\r\n", "<br>")
	return strings.ReplaceAll(s, "\n", "<br>")
}

func numericColumn(rows [][]string, i int) bool {
	seen := false
	for _, r := range rows {
		if i >= len(r) || r[i] == "" || r[i] == "-" {
			continue
		}
		if _, err := strconv.ParseFloat(strings.TrimSuffix(r[i], "%"), 64); err != nil {
			return false
		}
		seen = true
	}
	return seen
}
