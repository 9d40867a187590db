package evaluate

import (
	"fmt"
	"strings"

	"lifezero/tsumego"
)

// WriteTsumegoSection writes the report section of a tsumego-train stage:
// what the model was trained on and how well it predicts the book's first
// moves of problems it did not see (cross-validated).
func WriteTsumegoSection(outDir string, meta tsumego.Meta, seconds float64) error {
	a := meta.CrossValidated
	ld := "on"
	if meta.LDFeatures == 0 {
		ld = "off"
	}
	rows := [][]string{
		{"collection", meta.Source},
		{"problems trained on", fmt.Sprint(meta.Problems)},
		{"left out (inside a measured position)", fmt.Sprint(len(meta.Excluded))},
		{"life-and-death features", ld},
		{"MM iterations (final model)", fmt.Sprint(meta.Iterations)},
		{fmt.Sprintf("top-1, %d-fold cross-validated", meta.Folds), fmt.Sprintf("%.1f%%", 100*a.Top1)},
		{"top-3", fmt.Sprintf("%.1f%%", 100*a.Top3)},
		{"mean rank of the book move", fmt.Sprintf("%.2f of %.1f moves", a.MeanRank, a.MeanMoves)},
		{"top-1 of a uniform guess", fmt.Sprintf("%.1f%%", 100*a.UniformTop1)},
		{"training time", fmt.Sprintf("%.1f s", seconds)},
	}
	var b strings.Builder
	b.WriteString("A Bradley-Terry model of the book's first moves, used by solve stages that read this stage as " +
		"priors on top of their evaluator's (rzs.Learned). Each problem's accuracy comes from a model fitted " +
		"without it.\n\n")
	b.WriteString(MarkdownTable([]string{"tsumego model", ""}, rows))
	if len(meta.Excluded) > 0 {
		b.WriteString("\nLeft out: " + strings.Join(meta.Excluded, ", ") + ".\n")
	}
	return WriteSection(outDir, "Tsumego move priors", b.String())
}
