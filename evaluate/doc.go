// Package evaluate measures players and solvers and writes the reports.
//
// The report part (report*.go, plot*.go) gives every stage a way to say what
// it found: WriteSection writes a Markdown section into the stage's output
// directory (<out>/report/section.md), the plot helpers draw line plots, bar
// charts and log-log scatter plots as PNG files next to it, and BuildReport
// gathers the sections and plots of a pipeline's stages into one report.md.
// It also summarises problem sets (the "problems" dataset and its section).
// The solve-rate benchmarks and playing-strength matches live beside it.
package evaluate
