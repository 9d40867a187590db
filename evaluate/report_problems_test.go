package evaluate

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"lifezero/datasets"
	"lifezero/game"
	"lifezero/internal/testdata"
)

// sharedData returns ../shared/data beside the repository root, or skips.
func sharedData(t *testing.T) string { return testdata.Path(t) }

// fileProblem is what the test reads from a problem JSON itself.
type fileProblem struct {
	ID      string            `json:"id"`
	ToPlay  string            `json:"to_play"`
	Winner  string            `json:"winner"`
	Goal    map[string]string `json:"goal"`
	Ko      map[string]string `json:"ko"`
	Crucial string            `json:"crucial_stones"`
	Region  string            `json:"region"`
	FTLD    string            `json:"ftl_d"`
	Answer  string            `json:"answer_first_move"`
}

func countList(s string) int32 {
	if s == "" {
		return 0
	}
	return int32(len(strings.Split(s, ",")))
}

func TestProblemsDatasetMatchesFiles(t *testing.T) {
	data := sharedData(t)
	var rows []ProblemRow
	want := map[string]fileProblem{}
	for _, set := range []string{"killall7x7", "cho19-dev"} {
		dir := filepath.Join(data, "problems", set)
		probs, err := game.LoadProblemDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, pr := range probs {
			rows = append(rows, ProblemRowOf(pr))
			raw, err := os.ReadFile(filepath.Join(dir, pr.ID+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var fp fileProblem
			if err := json.Unmarshal(raw, &fp); err != nil {
				t.Fatal(err)
			}
			want[set+"/"+fp.ID] = fp
		}
	}
	if len(rows) != 20+53 {
		t.Fatalf("%d problems, want 73", len(rows))
	}
	out := t.TempDir()
	m, err := WriteProblems(context.Background(), out, rows, datasets.Manifest{Stage: "problems", InputHash: "h"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Rows != 73 || m.Kind != ProblemsKind {
		t.Errorf("manifest rows %d kind %q", m.Rows, m.Kind)
	}
	got, _, err := ReadProblems(context.Background(), out)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(rows) {
		t.Fatalf("read %d rows, wrote %d", len(got), len(rows))
	}
	for i, r := range got {
		if r != rows[i] {
			t.Errorf("row %d: read %+v, wrote %+v", i, r, rows[i])
		}
		set := "killall7x7"
		if r.Size == 19 {
			set = "cho19-dev"
		}
		fp := want[set+"/"+r.ID]
		region := countList(fp.Region)
		if region == 0 {
			region = r.Size * r.Size
		}
		ftl, _ := strconv.Atoi(fp.FTLD)
		answer := fp.Answer
		if answer == "tt" {
			answer = "pass"
		}
		if r.ToPlay != fp.ToPlay || r.Winner != fp.Winner || r.GoalBlack != fp.Goal["B"] || r.GoalWhite != fp.Goal["W"] ||
			r.KoBlack != fp.Ko["B"] || r.KoWhite != fp.Ko["W"] || r.Crucial != countList(fp.Crucial) ||
			r.Region != region || int(r.FTLD) != ftl || r.Answer != answer {
			t.Errorf("%s/%s: row %+v does not match the file %+v", set, r.ID, r, fp)
		}
	}
	sec, err := ReadSection(out)
	if err != nil {
		t.Fatal(err)
	}
	blackLives := 0
	for k, fp := range want {
		if strings.HasPrefix(k, "cho19-dev/") && fp.Goal["B"] == "live" {
			blackLives++
		}
	}
	for _, w := range []string{"73 problems: ", fmt.Sprintf(" %d on 19x19, B live / W kill;", blackLives),
		fmt.Sprintf(" %d on 19x19, B kill / W live;", 53-blackLives), " 20 on 7x7, B kill_all / W live_any;",
		"| 01 | 7x7 | B | W | B kill_all / W live_any |"} {
		if !strings.Contains(sec.Markdown, w) {
			t.Errorf("section lacks %q:\n%.600s", w, sec.Markdown)
		}
	}
}
