package game

import "testing"

// koRows is a ko on a 5x5 board: Black C4 takes the white stone at B4, and
// White may not retake at B4 at once.
var koRows = []string{
	".XO..",
	"XO.O.",
	".XO..",
	".....",
	".....",
}

func TestSimpleKo(t *testing.T) {
	tests := []struct {
		name string
		// between are the moves after Black's capture (White first)
		// before White tries to retake at B4.
		between []string
		retake  bool
	}{
		{"immediate retake is illegal", nil, false},
		{"after a move elsewhere by each side", []string{"E1", "E2"}, true},
		{"after White passes and Black passes", []string{"pass", "pass"}, true},
		{"after Black fills the ko", []string{"E1", "B4"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := diagram(t, koRows...)
			playGTP(t, p, "C4")
			b4 := gtpPoint(t, &p.Board, "B4")
			if p.Ko() != b4 {
				t.Fatalf("ko point %s after the capture, want B4", p.GTPString(p.Ko()))
			}
			playGTP(t, p, tt.between...)
			if got := p.IsLegal(b4); got != tt.retake {
				t.Fatalf("White B4 legal = %v, want %v\n%s", got, tt.retake, p)
			}
			if tt.retake {
				playGTP(t, p, "B4")
				if p.Ko() != gtpPoint(t, &p.Board, "C4") {
					t.Fatalf("after the retake the ko point is %s, want C4", p.GTPString(p.Ko()))
				}
			}
		})
	}
}

// A capture of one stone is not a ko when the capturing stone joins a
// block or keeps other liberties.
func TestNotKo(t *testing.T) {
	tests := []struct {
		name string
		rows []string
		move string
	}{
		{"capturing stone joins a block", []string{
			".XO..",
			"XO.O.",
			".XX..",
			".....",
			".....",
		}, "C4"},
		{"capturing stone keeps another liberty", []string{
			".XO..",
			"XO...",
			".XO..",
			".....",
			".....",
		}, "C4"},
		{"two stones taken", []string{
			".XOO.",
			"XO.XO",
			"XXO..",
			".....",
			".....",
		}, "C4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := diagram(t, tt.rows...)
			before := p.Captured(White)
			playGTP(t, p, tt.move)
			if p.Captured(White) == before {
				t.Fatalf("%s captured nothing", tt.move)
			}
			if p.Ko() != NoPoint {
				t.Fatalf("ko point %s, want none", p.GTPString(p.Ko()))
			}
		})
	}
}

// tripleKoRows holds three kos. Black to move can start the cycle Black
// C8, White B5, Black C2, White B8, Black C5, White B2, after which the
// stones stand as at the start: each capture is legal under simple ko.
var tripleKoRows = []string{
	".XO......",
	"XO.O.....",
	".XO......",
	".XO......",
	"X.XO.....",
	".XO......",
	".XO......",
	"XO.O.....",
	".XO......",
}

var tripleKoCycle = []string{"C8", "B5", "C2", "B8", "C5", "B2"}

func TestTripleKoUnderSimpleKo(t *testing.T) {
	p := diagram(t, tripleKoRows...)
	start := p.StoneHash()
	for round := 0; round < 3; round++ {
		for i, v := range tripleKoCycle {
			before := p.Captured(Black) + p.Captured(White)
			playGTP(t, p, v)
			if p.Captured(Black)+p.Captured(White) != before+1 {
				t.Fatalf("round %d move %d %s captured no stone", round, i, v)
			}
		}
		if p.StoneHash() != start {
			t.Fatalf("round %d: the cycle did not come back to the start\n%s", round, p)
		}
	}
}

func TestPositionalSuperko(t *testing.T) {
	tests := []struct {
		name         string
		black, white KoRule
		// refused is the index in the repeated cycle of the first refused
		// move, or -1 when every move is legal.
		refused int
	}{
		{"simple ko for both", SimpleKo, SimpleKo, -1},
		{"white superko: its sixth move repeats the start", SimpleKo, PositionalSuperko, 5},
		{"black superko: its move after the cycle repeats", PositionalSuperko, SimpleKo, 6},
		{"both superko", PositionalSuperko, PositionalSuperko, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := diagram(t, tripleKoRows...)
			p.SetKoRule(Black, tt.black)
			p.SetKoRule(White, tt.white)
			moves := append(append([]string{}, tripleKoCycle...), tripleKoCycle...)
			for i, v := range moves {
				m := gtpPoint(t, &p.Board, v)
				legal := p.IsLegal(m)
				if i == tt.refused {
					if legal {
						t.Fatalf("move %d %v %s repeats a position but is legal", i, p.ToMove(), v)
					}
					if err := p.Play(m); err == nil {
						t.Fatalf("Play accepted the superko violation %s", v)
					}
					return
				}
				if !legal {
					t.Fatalf("move %d %v %s refused", i, p.ToMove(), v)
				}
				playGTP(t, p, v)
			}
			if tt.refused >= 0 {
				t.Fatalf("no move refused, want move %d", tt.refused)
			}
		})
	}
}

// After a ko capture and two passes, retaking the ko is legal under simple
// ko (the passes cleared the ko point) but recreates the position before
// the capture, which positional superko forbids.
func TestPositionalSuperkoAfterPasses(t *testing.T) {
	for _, rule := range []KoRule{SimpleKo, PositionalSuperko} {
		p := diagram(t, koRows...)
		p.SetKoRule(White, rule)
		playGTP(t, p, "C4", "pass", "pass")
		b4 := gtpPoint(t, &p.Board, "B4")
		if got, want := p.IsLegal(b4), rule == SimpleKo; got != want {
			t.Errorf("%v: retake after two passes legal = %v, want %v", rule, got, want)
		}
	}
}

func TestNoKoCapture(t *testing.T) {
	// Black may not take the ko at all, not even as the first capture.
	p := diagram(t, koRows...)
	p.SetKoRule(Black, NoKoCapture)
	c4 := gtpPoint(t, &p.Board, "C4")
	if p.IsLegal(c4) {
		t.Fatalf("Black may take a ko under NoKoCapture\n%s", p)
	}
	if err := p.Play(c4); err == nil {
		t.Fatal("Play took a ko under NoKoCapture")
	}

	// White under NoKoCapture may not retake, even after the ko point
	// was released; Black under simple ko may take it again.
	p = diagram(t, koRows...)
	p.SetKoRule(White, NoKoCapture)
	playGTP(t, p, "C4", "E1", "E2")
	b4 := gtpPoint(t, &p.Board, "B4")
	if p.IsLegal(b4) {
		t.Fatal("White may retake a ko under NoKoCapture")
	}
	p.SetKoRule(White, SimpleKo)
	if !p.IsLegal(b4) {
		t.Fatal("test position: White may not retake under simple ko either")
	}

	// Captures that are not kos stay legal under NoKoCapture.
	tests := []struct {
		rows []string
		move string
	}{
		{[]string{".XO..", "XO.O.", ".XX..", ".....", "....."}, "C4"},
		{[]string{".XOO.", "XO.XO", "XXO..", ".....", "....."}, "C4"},
		{[]string{".....", ".....", ".....", ".....", "OX..."}, "A2"},
	}
	for _, tt := range tests {
		p := diagram(t, tt.rows...)
		p.SetKoRule(Black, NoKoCapture)
		m := gtpPoint(t, &p.Board, tt.move)
		if p.CaptureCount(Black, m) == 0 {
			t.Fatalf("test position: %s captures nothing\n%s", tt.move, p)
		}
		if !p.IsLegal(m) {
			t.Errorf("non-ko capture %s refused under NoKoCapture\n%s", tt.move, p)
		}
	}
}
