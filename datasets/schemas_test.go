package datasets_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/ipc"

	"lifezero/datasets"
	"lifezero/evaluate"
	"lifezero/game"
	"lifezero/movepred"
	"lifezero/nn"
	"lifezero/rzs"
	"lifezero/rztstore"
	"lifezero/selfplay"
	"lifezero/train"
)

// fileSchemas reads the schema of every Arrow file in dir straight from
// the IPC file (not through datasets.Open, which takes the first file's
// schema as the dataset's).
func fileSchemas(t *testing.T, dir string) map[string]*arrow.Schema {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*"+datasets.FileExt))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no Arrow file in %s: %v", dir, err)
	}
	out := map[string]*arrow.Schema{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		r, err := ipc.NewFileReader(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out[filepath.Base(p)] = r.Schema()
		r.Close()
	}
	return out
}

// TestWritersUseTheirSchemas writes a small dataset with each writer of
// the repository and checks that every Arrow file it wrote has exactly the
// schema declared for it in schemas.go.
func TestWritersUseTheirSchemas(t *testing.T) {
	ctx := context.Background()
	netCfg, err := nn.Preset(nn.Preset2x16, 7)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		want  *arrow.Schema
		write func(dir string) error
	}{
		{"games", datasets.GamesSchema(), func(dir string) error {
			_, err := datasets.WriteGames(dir, []datasets.Game{{GameID: "g", BoardSize: 9, Moves: "B[aa]", NumMoves: 1}}, datasets.Manifest{}, datasets.WriterOptions{})
			return err
		}},
		{"movecands", datasets.MoveCandsSchema(), func(dir string) error {
			w, err := datasets.NewMoveCandsWriter(dir, datasets.WriterOptions{})
			if err != nil {
				return err
			}
			row := datasets.MoveCands{GameID: "g", BoardSize: 9, ToMove: datasets.ToMoveBlack, Moves: []int16{0, datasets.PassMove}, Features: [][]int32{{1, 2}, {3}}}
			if err := w.Append(&row); err != nil {
				return err
			}
			_, err = w.Commit(datasets.Manifest{})
			return err
		}},
		{"selfplay-samples", datasets.SelfplaySamplesSchema(netCfg.InputSize(), netCfg.PolicySize(), netCfg.D), func(dir string) error {
			ka, err := selfplay.KillAll(7)
			if err != nil {
				return err
			}
			o := selfplay.DefaultOptions()
			o.Starts, o.Config, o.Games, o.Simulations, o.DW, o.Workers, o.Seed = []selfplay.Start{ka}, netCfg, 1, 2, 40, 1, 1
			_, err = selfplay.Run(ctx, dir, o)
			return err
		}},
		{"network losses", datasets.NetworkLossesSchema(), func(dir string) error {
			_, err := train.WriteLosses(dir, []train.LossPoint{{Step: 1, LR: 0.1, Policy: 1, Value: 2, DWin: 3, Total: 6}})
			return err
		}},
		{"rz-patterns", datasets.RZPatternsSchema(), func(dir string) error {
			pos, err := game.NewPosition(7)
			if err != nil {
				return err
			}
			if err := pos.Place(game.White, pos.Point(1, 1)); err != nil {
				return err
			}
			pr := &game.Problem{ID: "p", Start: pos, Region: pos.AllPoints(), Answer: game.NoPoint}
			tb := rzs.NewTreeTable(pr, rzs.TableOptions{})
			standing := pos.AllPoints()
			tb.Insert(pos, &standing, pos.AllPoints())
			_, err = rztstore.Save(dir, tb, datasets.Manifest{})
			return err
		}},
		{"solve-results", datasets.SolveResultsSchema(), func(dir string) error {
			_, err := evaluate.WriteSolveResults(ctx, dir, []evaluate.SolveRow{{ID: "p", Size: 7, Nodes: 3, Seconds: 0.5, RZ: true}}, datasets.Manifest{Stage: "solve"})
			return err
		}},
		{"problems", datasets.ProblemsSchema(), func(dir string) error {
			_, err := evaluate.WriteProblems(ctx, dir, []evaluate.ProblemRow{{ID: "p", Size: 7, Crucial: 2}}, datasets.Manifest{Stage: "problems"})
			return err
		}},
		{"movepred-results", datasets.MovePredResultsSchema(), func(dir string) error {
			_, err := evaluate.WriteMovePredResults(dir, []movepred.Result{{Player: "bt", Positions: 1, TopK: []float64{1}}}, datasets.Manifest{})
			return err
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), strings.ReplaceAll(c.name, " ", "-"))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := c.write(dir); err != nil {
				t.Fatal(err)
			}
			for name, got := range fileSchemas(t, dir) {
				if !got.Equal(c.want) {
					t.Errorf("%s has schema\n%v\nwant\n%v", name, got, c.want)
				}
			}
		})
	}
}
