package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"lifezero/internal/atomicfile"
	"lifezero/pipelines"
)

// collectRows runs a per-problem benchmark (evaluate.OwlProblems,
// RZTProblems) over n problems, gathering its rows with the stage's
// progress bar.
func collectRows[R any](env *pipelines.Env, n int, run func(emit func(R) error) error) ([]R, error) {
	var rows []R
	env.Progress.Start(n, "problems")
	err := run(func(r R) error {
		rows = append(rows, r)
		env.Progress.Add(1)
		return nil
	})
	env.Progress.Finish()
	return rows, err
}

// writeRowsJSON writes rows as indented JSON to name in the stage's
// output directory, atomically.
func writeRowsJSON(env *pipelines.Env, name string, rows any) error {
	data, err := json.MarshalIndent(rows, "", " ")
	if err != nil {
		return fmt.Errorf("stage %q: %w", env.Stage, err)
	}
	return atomicfile.WriteFile(filepath.Join(env.OutDir, name), append(data, '\n'))
}
