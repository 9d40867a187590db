package game

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lifezero/internal/testdata"
)

// sharedData finds ../shared/data/sub beside the repository root, or skips.
func sharedData(t testing.TB, sub string) string { return testdata.Path(t, sub) }

func TestLoadAllSharedProblems(t *testing.T) {
	sets := map[string]int{"killall7x7": 20, "cho19-dev": 53}
	total := 0
	for set, want := range sets {
		dir := sharedData(t, filepath.Join("problems", set))
		probs, err := LoadProblemDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(probs) != want {
			t.Errorf("%s: %d problems, want %d", set, len(probs), want)
		}
		for _, pr := range probs {
			total++
			checkProblemAgainstSGF(t, pr)
		}
	}
	if total != 73 {
		t.Errorf("loaded %d problems, want 73", total)
	}
}

// checkProblemAgainstSGF loads the ID.sgf beside a JSON problem and checks
// both give the same position, goals, crucial stones, region and ftl_d.
func checkProblemAgainstSGF(t *testing.T, pr *Problem) {
	t.Helper()
	living := pr.Living()
	if pr.Goal[living.Opponent()].Living() {
		t.Errorf("%s: both sides live", pr.ID)
	}
	if pr.Start.KoRule(living) != NoKoCapture || pr.Start.KoRule(living.Opponent()) != PositionalSuperko {
		t.Errorf("%s: ko rules %v/%v, files say living side disallow_ko", pr.ID, pr.Start.KoRule(living), pr.Start.KoRule(living.Opponent()))
	}
	if pr.Winner != Black && pr.Winner != White {
		t.Errorf("%s: no winner", pr.ID)
	}
	if pr.FTLD <= 0 {
		t.Errorf("%s: ftl_d %d", pr.ID, pr.FTLD)
	}
	sgfPath := strings.TrimSuffix(pr.Source, ".json") + ".sgf"
	fromSGF, err := LoadProblem(sgfPath)
	if err != nil {
		t.Fatalf("%s: %v", sgfPath, err)
	}
	if fromSGF.Start.Hash() != pr.Start.Hash() || fromSGF.Start.ToMove() != pr.Start.ToMove() {
		t.Errorf("%s: SGF and JSON positions differ\n%v\n%v", pr.ID, fromSGF.Start, pr.Start)
	}
	if fromSGF.Goal != pr.Goal {
		t.Errorf("%s: goals SGF %v JSON %v", pr.ID, fromSGF.Goal, pr.Goal)
	}
	if fromSGF.Crucial != pr.Crucial || fromSGF.Region != pr.Region {
		t.Errorf("%s: crucial/region differ between SGF and JSON", pr.ID)
	}
	if fromSGF.FTLD != pr.FTLD {
		t.Errorf("%s: ftl_d SGF %d JSON %d", pr.ID, fromSGF.FTLD, pr.FTLD)
	}
}

func TestProblemFields(t *testing.T) {
	dir := sharedData(t, "problems")
	tests := []struct {
		file            string
		toPlay, winner  Color
		living          Color
		goal            Goal
		crucial, region int
		ftl             int
		answer          string
	}{
		{"killall7x7/01.json", Black, White, White, GoalLiveAny, 0, 49, 28, "none"},
		{"killall7x7/02.json", White, White, White, GoalLiveAny, 0, 49, 36, "none"},
		{"cho19-dev/001.json", Black, Black, Black, GoalLive, 1, 0, 14, "sr"},
		{"cho19-dev/003.json", Black, Black, Black, GoalLive, 3, 0, 20, "pr"},
	}
	for _, tc := range tests {
		pr, err := LoadProblem(filepath.Join(dir, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		if pr.Start.ToMove() != tc.toPlay || pr.Winner != tc.winner || pr.Living() != tc.living || pr.Goal[tc.living] != tc.goal {
			t.Errorf("%s: to play %v winner %v living %v goal %v", tc.file, pr.Start.ToMove(), pr.Winner, pr.Living(), pr.Goal[pr.Living()])
		}
		if pr.Crucial.Len() != tc.crucial || pr.FTLD != tc.ftl || pr.Start.PointString(pr.Answer) != tc.answer && !(tc.answer == "none" && pr.Answer == NoPoint) {
			t.Errorf("%s: crucial %d ftl %d answer %s", tc.file, pr.Crucial.Len(), pr.FTLD, pr.Start.PointString(pr.Answer))
		}
		if tc.region > 0 && pr.Region.Len() != tc.region {
			t.Errorf("%s: region %d points, want %d", tc.file, pr.Region.Len(), tc.region)
		}
	}
}

func TestProblemBadInput(t *testing.T) {
	tests := []struct {
		name, body, wantErr string
	}{
		{"bad.json", `{"id": "x", "sgf": "(;SZ[7]`, "malformed JSON"},
		{"badsgf.json", `{"id":"x","sgf":"(;SZ[7];B[dc]","goal":{"B":"kill_all","W":"live_any"}}`, `field "sgf"`},
		{"goal.json", `{"id":"x","sgf":"(;SZ[7];B[dc])","goal":{"B":"kill_all","W":"survive"}}`, `unknown goal "survive"`},
		{"twolive.json", `{"id":"x","sgf":"(;SZ[7];B[dc])","goal":{"B":"live_any","W":"live_any"}}`, "exactly one side"},
		{"ko.json", `{"id":"x","sgf":"(;SZ[7];B[dc])","goal":{"B":"kill_all","W":"live_any"},"ko":{"B":"sometimes"}}`, `field "ko.B"`},
		{"toplay.json", `{"id":"x","sgf":"(;SZ[7];B[dc])","to_play":"B","goal":{"B":"kill_all","W":"live_any"}}`, `field "to_play"`},
		{"occupied.json", `{"id":"x","sgf":"(;SZ[7];B[dc];W[dc])","goal":{"B":"kill_all","W":"live_any"}}`, "occupied"},
		{"offboard.json", `{"id":"x","sgf":"(;SZ[7];B[hh])","goal":{"B":"kill_all","W":"live_any"}}`, "off"},
		{"crucial.json", `{"id":"x","sgf":"(;SZ[9]AB[cc]AW[dd]TR[cc])","goal":{"B":"live","W":"kill"},"crucial_stones":"dd"}`, "crucial stone dd is not a B stone"},
		{"size.sgf", `(;SZ[30])`, "board size 30"},
		{"dead.sgf", `(;SZ[5]AB[aa]AW[ba][ab]TR[ba])`, "no liberty"},
		{"nogoal.sgf", `(;SZ[9]AB[cc])`, "cannot tell the goals"},
		{"x.txt", `hello`, "want a .json or .sgf"},
	}
	dir := t.TempDir()
	for _, tc := range tests {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadProblem(path)
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%s: error %v, want it to name the file and say %q", tc.name, err, tc.wantErr)
		}
	}
}
