package game

import (
	"strings"
	"testing"

	"lifezero/sgf"
)

// A position written with AddSGFSetup reads back, through the SGF text and
// SetupPosition, as the same stones and side to move.
func TestAddSGFSetupRoundTrip(t *testing.T) {
	tests := []struct {
		name         string
		size         int
		black, white []string
		any          bool
	}{
		{"empty", 7, nil, nil, false},
		{"black only", 9, []string{"aa", "cd"}, nil, true},
		{"both", 19, []string{"dd", "pp"}, []string{"dp", "pd", "sa"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos, err := NewPosition(tt.size)
			if err != nil {
				t.Fatal(err)
			}
			for c, points := range map[Color][]string{Black: tt.black, White: tt.white} {
				for _, v := range points {
					p, err := pos.ParsePoint(v)
					if err != nil {
						t.Fatal(err)
					}
					if err := pos.Place(c, p); err != nil {
						t.Fatal(err)
					}
				}
			}
			root := NewSGFRoot(tt.size)
			if got := AddSGFSetup(root, &pos.Board); got != tt.any {
				t.Errorf("AddSGFSetup reports stones %v, want %v", got, tt.any)
			}
			root.Add("PL", "W")
			text := sgf.Collection{root}.String()
			coll, err := sgf.Parse(strings.NewReader(text))
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			back, err := SetupPosition(coll[0])
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			if back.Size() != tt.size || back.ToMove() != White {
				t.Errorf("%s: size %d to move %v, want %d W", text, back.Size(), back.ToMove(), tt.size)
			}
			all := pos.AllPoints()
			all.ForEach(func(p Point) {
				if back.At(p) != pos.At(p) {
					t.Errorf("%s: %s is %v, want %v", text, pos.PointString(p), back.At(p), pos.At(p))
				}
			})
		})
	}
}

func TestSGFMove(t *testing.T) {
	pos, err := NewPosition(9)
	if err != nil {
		t.Fatal(err)
	}
	if v := pos.SGFMove(Pass); v != "" {
		t.Errorf("pass is %q, want empty", v)
	}
	for _, v := range []string{"aa", "ei", "ia"} {
		p, err := pos.ParsePoint(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := pos.SGFMove(p); got != v {
			t.Errorf("SGFMove(ParsePoint(%q)) = %q", v, got)
		}
	}
}
