package main

import (
	"context"
	"fmt"
	"sort"

	"lifezero/datasets"
	"lifezero/evaluate"
	"lifezero/pipelines"
)

const reportKindName = "report"

// reportOptions are the report stage's params (it has no command; its
// defaults are the zero value).
type reportOptions struct {
	Title string `yaml:"title" help:"the report's title (default: lifezero report: PIPELINE)"`
}

func reportKind() pipelines.Kind {
	return pipelines.Kind{
		Name: reportKindName,
		Doc: "Gathers the report sections and plots of its input stages, in pipeline order, into " +
			"<workdir>/<stage>/report.md with the images next to it, and the same report as a " +
			"self-contained page, report.html (images inlined, tables as HTML tables).",
		// 2: report.html beside report.md.
		Version:     2,
		Params:      reportOptions{},
		CheckInputs: stageInputs,
		// It reads its inputs' report sections: a changed section must
		// rebuild the report.
		ReadsReports: true,
		Run:          runReport,
	}
}

func runReport(ctx context.Context, env *pipelines.Env) error {
	p, err := pipelines.ParamsAs[reportOptions](env)
	if err != nil {
		return err
	}
	title := p.Title
	if title == "" {
		title = "lifezero report: " + env.Pipeline
	}
	ins := append([]pipelines.InputRef(nil), env.Inputs...)
	sort.SliceStable(ins, func(i, j int) bool { return ins[i].Order < ins[j].Order })
	var inputs []evaluate.ReportInput
	for _, in := range ins {
		inputs = append(inputs, evaluate.ReportInput{Stage: in.Stage, Dir: in.Path, Kind: in.Manifest.Kind, Rows: in.Manifest.Rows})
	}
	files, err := evaluate.BuildReport(ctx, env.OutDir, title, inputs)
	if err != nil {
		return err
	}
	m := &datasets.Manifest{Kind: "report", SchemaVersion: 1}
	for i, f := range files {
		rows := int64(0)
		if i == 0 { // report.md: one row per input stage
			rows = int64(len(inputs))
		}
		e, err := env.FileEntry(f, rows)
		if err != nil {
			return err
		}
		m.Files = append(m.Files, e)
	}
	if err := env.WriteManifest(m); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
