package nn

import (
	"strings"
	"testing"
)

func TestPreset(t *testing.T) {
	tests := []struct {
		name             string
		board            int
		blocks, filters  int
		d                int
		wantErrSubstring string
	}{
		{name: Preset5x64, board: 7, blocks: 5, filters: 64, d: 98},
		{name: Preset3x32, board: 19, blocks: 3, filters: 32, d: 30},
		{name: Preset2x16, board: 9, blocks: 2, filters: 16, d: 162},
		{name: "10x128", board: 13, blocks: 10, filters: 128, d: 30},
		{name: "5by64", board: 7, wantErrSubstring: "<blocks>x<filters>"},
		{name: "5x64", board: 4, wantErrSubstring: "board 4"},
		{name: "5x0", board: 7, wantErrSubstring: "filters 0"},
	}
	for _, tt := range tests {
		c, err := Preset(tt.name, tt.board)
		if tt.wantErrSubstring != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErrSubstring) {
				t.Errorf("Preset(%q, %d) error %v, want one containing %q", tt.name, tt.board, err, tt.wantErrSubstring)
			}
			continue
		}
		if err != nil {
			t.Errorf("Preset(%q, %d): %v", tt.name, tt.board, err)
			continue
		}
		if c.Blocks != tt.blocks || c.Filters != tt.filters || c.D != tt.d || c.Board != tt.board || c.ValueHidden != 256 {
			t.Errorf("Preset(%q, %d) = %+v", tt.name, tt.board, c)
		}
	}
}

func TestLayoutShapes(t *testing.T) {
	c := Config{Board: 7, Blocks: 2, Filters: 8, D: 5, MoveNumberPlanes: 3, ValueHidden: 16}
	w, err := NewWeights(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]int{
		"stem.conv":       {8, NumFixedPlanes + 3, 3, 3},
		"block1.b.conv":   {8, 8, 3, 3},
		"block1.b.bn.var": {8},
		"policy.conv":     {2, 8, 1, 1},
		"policy.fc.w":     {2 * 49, 50},
		"value.fc1.w":     {49, 16},
		"value.fc2.w":     {16, 1},
		"dwin.fc.w":       {16, 5},
		"dwin.fc.b":       {5},
	}
	for name, shape := range want {
		tt := w.Tensor(name)
		if tt == nil {
			t.Errorf("no tensor %q", name)
			continue
		}
		if len(tt.Shape) != len(shape) || size(tt.Shape) != size(shape) || len(tt.Data) != size(shape) {
			t.Errorf("%s shape %v (%d floats), want %v", name, tt.Shape, len(tt.Data), shape)
		}
	}
	if v := w.data("block0.a.bn.var"); v[0] != 1 {
		t.Errorf("running variance starts at %v, want 1", v[0])
	}
	// 5 conv layers (stem + 2 blocks × 2) of 5 tensors, 2 head convs of 5,
	// 4 FC layers of 2.
	if got := len(w.Names()); got != 5*5+2*5+4*2 {
		t.Errorf("%d tensors", got)
	}
}
