package selfplay

import (
	"testing"

	"lifezero/game"
)

func TestFTLTargets(t *testing.T) {
	const d = 6
	tests := []struct {
		name      string
		o         Outcome
		move      int
		toMove    game.Color
		wantValue float32
		wantDWin  []float32
		wantMask  []float32
	}{
		{
			name: "white lives 3 moves later, white to move",
			o:    Outcome{Living: game.White, Result: game.LivingWins, EndMove: 13}, move: 10, toMove: game.White,
			wantValue: 1, wantDWin: []float32{0, 0, 1, 1, 1, 1}, wantMask: []float32{1, 1, 1, 1, 1, 1},
		},
		{
			name: "white lives with the next move, black's view",
			o:    Outcome{Living: game.White, Result: game.LivingWins, EndMove: 11}, move: 10, toMove: game.Black,
			wantValue: -1, wantDWin: []float32{1, 1, 1, 1, 1, 1}, wantMask: []float32{1, 1, 1, 1, 1, 1},
		},
		{
			name: "life beyond the last output counts no d-win",
			o:    Outcome{Living: game.White, Result: game.LivingWins, EndMove: 30}, move: 10, toMove: game.White,
			wantValue: 1, wantDWin: []float32{0, 0, 0, 0, 0, 0}, wantMask: []float32{1, 1, 1, 1, 1, 1},
		},
		{
			name: "living side fails: 0 for every d",
			o:    Outcome{Living: game.Black, Result: game.LivingFails, EndMove: 12}, move: 4, toMove: game.Black,
			wantValue: -1, wantDWin: []float32{0, 0, 0, 0, 0, 0}, wantMask: []float32{1, 1, 1, 1, 1, 1},
		},
		{
			name: "killer's view of a failure",
			o:    Outcome{Living: game.Black, Result: game.LivingFails, EndMove: 12}, move: 5, toMove: game.White,
			wantValue: 1, wantDWin: []float32{0, 0, 0, 0, 0, 0}, wantMask: []float32{1, 1, 1, 1, 1, 1},
		},
		{
			name: "move cap 4 moves later: known up to the cap",
			o:    Outcome{Living: game.White, Result: game.Undecided, EndMove: 14}, move: 10, toMove: game.White,
			wantValue: -1, wantDWin: []float32{0, 0, 0, 0, 0, 0}, wantMask: []float32{1, 1, 1, 1, 0, 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, dwin, mask := FTLTargets(tt.o, tt.move, tt.toMove, d)
			if v != tt.wantValue {
				t.Errorf("value %v, want %v", v, tt.wantValue)
			}
			for k := range d {
				if dwin[k] != tt.wantDWin[k] || mask[k] != tt.wantMask[k] {
					t.Fatalf("dwin %v mask %v, want %v %v", dwin, mask, tt.wantDWin, tt.wantMask)
				}
			}
		})
	}
}

// A d-win implies a d'-win for every d' >= d, for every position of every
// won game.
func TestFTLTargetsMonotone(t *testing.T) {
	for end := 3; end < 40; end++ {
		for move := 0; move < end; move++ {
			_, dwin, mask := FTLTargets(Outcome{Living: game.White, Result: game.LivingWins, EndMove: end}, move, game.Black, 20)
			for k := 1; k < len(dwin); k++ {
				if dwin[k] < dwin[k-1] {
					t.Fatalf("end %d move %d: dwin %v not monotone", end, move, dwin)
				}
			}
			for k, m := range mask {
				if m != 1 {
					t.Fatalf("end %d move %d: mask[%d] = %v for a decided game", end, move, k, m)
				}
			}
			// The first d-win is exactly at the moves left.
			if left := end - move; left <= 20 && (dwin[left-1] != 1 || (left > 1 && dwin[left-2] != 0)) {
				t.Fatalf("end %d move %d: dwin %v, first win should be at d=%d", end, move, dwin, left)
			}
		}
	}
}

func TestMedianLength(t *testing.T) {
	tests := []struct {
		ends []int
		want int
	}{
		{nil, 0},
		{[]int{17}, 17},
		{[]int{30, 10, 20}, 20},
		{[]int{10, 40, 20, 30}, 25},
		{[]int{10, 11}, 11}, // 10.5 rounds up
		{[]int{5, 5, 5, 90}, 5},
	}
	for _, tt := range tests {
		var os []Outcome
		for _, e := range tt.ends {
			os = append(os, Outcome{Living: game.White, Result: game.LivingWins, EndMove: e})
		}
		if got := MedianLength(os); got != tt.want {
			t.Errorf("MedianLength(%v) = %d, want %d", tt.ends, got, tt.want)
		}
	}
}

func TestLivedWithin(t *testing.T) {
	win := Outcome{Living: game.White, Result: game.LivingWins, EndMove: 20}
	if !win.LivedWithin(20) || win.LivedWithin(19) {
		t.Error("a life at move 20 is within d_w 20 and not within 19")
	}
	if (Outcome{Living: game.White, Result: game.LivingFails, EndMove: 5}).LivedWithin(50) {
		t.Error("a failure is never a life within d_w")
	}
}
