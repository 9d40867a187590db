package progress

import (
	"slices"
	"testing"
)

// record is a Reporter that keeps what it was told.
type record struct {
	starts []string
	totals []int
	done   int
	ends   int
}

func (r *record) Start(total int, what string) {
	r.starts, r.totals = append(r.starts, what), append(r.totals, total)
}
func (r *record) Add(n int) { r.done += n }
func (r *record) Finish()   { r.ends++ }

func TestCounter(t *testing.T) {
	tests := []struct {
		name  string
		calls [][2]int // done, total
		done  int
	}{
		{"growing", [][2]int{{0, 10}, {3, 10}, {10, 10}}, 10},
		{"repeated and late start", [][2]int{{4, 9}, {4, 9}, {9, 9}}, 9},
		{"never backwards", [][2]int{{5, 8}, {2, 8}, {8, 8}}, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r record
			f := Counter(&r, "bytes")
			for _, c := range tt.calls {
				f(c[0], c[1])
			}
			if !slices.Equal(r.starts, []string{"bytes"}) || r.totals[0] != tt.calls[0][1] {
				t.Errorf("starts %v totals %v, want one start of %d bytes", r.starts, r.totals, tt.calls[0][1])
			}
			if r.done != tt.done {
				t.Errorf("added %d, want %d", r.done, tt.done)
			}
		})
	}
}

func TestOr(t *testing.T) {
	if _, ok := Or(nil).(Nop); !ok {
		t.Errorf("Or(nil) = %T, want Nop", Or(nil))
	}
	r := &record{}
	if Or(r) != Reporter(r) {
		t.Error("Or(r) is not r")
	}
	Or(nil).Start(3, "x") // a Nop must take calls
}
