package game

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lifezero/internal/readfile"
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

// TestLoadSampleProblems: the problems the repository ships load too (the
// checks of issue 12, item 6, refuse none of them).
func TestLoadSampleProblems(t *testing.T) {
	for set, want := range map[string]int{"killall7x7": 3, "cho19-dev": 3} {
		probs, err := LoadProblemDir(filepath.Join("..", "samples", "problems", set))
		if err != nil {
			t.Fatal(err)
		}
		if len(probs) != want {
			t.Errorf("%s: %d problems, want %d", set, len(probs), want)
		}
		for _, pr := range probs {
			checkProblemAgainstSGF(t, pr)
		}
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
		// Issue 12, item 6: each was accepted.
		{"goalX.json", `{"id":"x","sgf":"(;SZ[7];B[dc])","goal":{"X":"kill_all","W":"live_any"}}`, `field "goal": unknown key "X" (want "B" and "W")`},
		{"goalW.json", `{"id":"x","sgf":"(;SZ[7];B[dc])","goal":{"W":"live_any"}}`, `field "goal": no goal for B`},
		{"koX.json", `{"id":"x","sgf":"(;SZ[7];B[dc])","goal":{"B":"kill_all","W":"live_any"},"ko":{"X":"allow_ko"}}`, `field "ko": unknown key "X" (want "B" and "W")`},
		{"ftlneg.json", `{"id":"x","sgf":"(;SZ[7];B[dc])","goal":{"B":"kill_all","W":"live_any"},"ftl_d":"-5"}`, `field "ftl_d": -5 is out of range: want 1..98`},
		{"ftlhuge.json", `{"id":"x","sgf":"(;SZ[7];B[dc])","goal":{"B":"kill_all","W":"live_any"},"ftl_d":"99999999999"}`, `field "ftl_d": 99999999999 is out of range: want 1..98`},
		{"ftlword.json", `{"id":"x","sgf":"(;SZ[7];B[dc])","goal":{"B":"kill_all","W":"live_any"},"ftl_d":"ten"}`, `field "ftl_d": "ten" is not a number`},
		{"occregion.json", `{"id":"x","sgf":"(;SZ[9]AB[cc][cd]AW[dd][de])","goal":{"B":"live","W":"kill"},"crucial_stones":"cc","region":"cc,cd,dd"}`,
			`field "region": every point of the region is occupied, so no move can be played`},
		{"typo.json", `{"id":"x","sgf":"(;SZ[7];B[dc])","goal":{"B":"kill_all","W":"live_any"},"ftl-d":"5"}`, `unknown field "ftl-d"`},
		{"kmneg.sgf", `(;SZ[7]KM[-5];B[dc])`, "KM[-5] (ftl_d): -5 is out of range: want 1..98"},
		{"kmfrac.sgf", `(;SZ[7]KM[6.5];B[dc])`, "KM[6.5] (ftl_d): not a whole number"},
		{"occma.sgf", `(;SZ[9]AB[cc][cd]AW[dd][de]TR[cc]MA[cc][dd])`, "MA: every point of the region is occupied"},
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

// TestProblemNotARegularFile: issue 12, item 4. /dev/zero, or a .json
// symlink to it, ran the machine out of memory; a huge file was read whole.
func TestProblemNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, make([]byte, readfile.MaxProblem+1), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"/dev/zero": "game: problem /dev/zero: want a .json or .sgf file",
		link:        link + ": not a regular file (it is a character device)",
		big:         big + ": file too large: 16777217 bytes, more than the 16 MiB this file may hold",
		dir:         dir + ": want a .json or .sgf file",
	} {
		if _, err := LoadProblem(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("LoadProblem(%s): error %v, want %q", path, err, want)
		}
	}
}
