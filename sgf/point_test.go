package sgf

import (
	"slices"
	"testing"
)

func TestPointRoundTrip(t *testing.T) {
	for size := 1; size <= MaxBoardSize; size++ {
		for y := range size {
			for x := range size {
				s := FormatPoint(x, y, false)
				gx, gy, pass, err := ParsePoint(s, size)
				if err != nil || pass || gx != x || gy != y {
					t.Fatalf("size %d: ParsePoint(FormatPoint(%d, %d) = %q) = %d, %d, %v, %v", size, x, y, s, gx, gy, pass, err)
				}
			}
		}
	}
}

func TestParsePoint(t *testing.T) {
	tests := []struct {
		value   string
		size    int
		x, y    int
		pass    bool
		wantErr bool
	}{
		{"aa", 19, 0, 0, false, false},
		{"pd", 19, 15, 3, false, false},
		{"ss", 19, 18, 18, false, false},
		{"ab", 9, 0, 1, false, false}, // column first
		{"", 19, 0, 0, true, false},
		{"tt", 19, 0, 0, true, false},
		{"tt", 9, 0, 0, true, false},
		{"tt", 21, 19, 19, false, false},
		{"AZ", 52, 26, 51, false, false},
		{"st", 19, 0, 0, false, true},
		{"jj", 9, 0, 0, false, true},
		{"a", 19, 0, 0, false, true},
		{"abc", 19, 0, 0, false, true},
		{"a1", 19, 0, 0, false, true},
		{"aa", 0, 0, 0, false, true},
		{"aa", 53, 0, 0, false, true},
	}
	for _, tc := range tests {
		x, y, pass, err := ParsePoint(tc.value, tc.size)
		if (err != nil) != tc.wantErr || x != tc.x || y != tc.y || pass != tc.pass {
			t.Errorf("ParsePoint(%q, %d) = %d, %d, %v, %v", tc.value, tc.size, x, y, pass, err)
		}
	}
}

func TestFormatPoint(t *testing.T) {
	tests := []struct {
		x, y int
		pass bool
		want string
	}{
		{15, 3, false, "pd"},
		{0, 0, true, ""},
		{26, 51, false, "AZ"},
		{-1, 52, false, "??"},
	}
	for _, tc := range tests {
		if got := FormatPoint(tc.x, tc.y, tc.pass); got != tc.want {
			t.Errorf("FormatPoint(%d, %d, %v) = %q, want %q", tc.x, tc.y, tc.pass, got, tc.want)
		}
	}
	if _, _, _, err := ParsePoint("??", 19); err == nil {
		t.Error(`ParsePoint("??") accepted an out-of-range marker`)
	}
}

func TestExpandPointList(t *testing.T) {
	tests := []struct {
		values  []string
		want    []Point
		wantErr bool
	}{
		{[]string{"aa:cb"}, []Point{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}}, false},
		{[]string{"cb:aa"}, []Point{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}}, false},
		{[]string{"dd", "ef:eg", "dd"}, []Point{{3, 3}, {4, 5}, {4, 6}, {3, 3}}, false},
		{[]string{""}, nil, false},
		{[]string{"aa", ""}, nil, true},
		{[]string{"tt"}, nil, true},
		{[]string{"aa:zz"}, nil, true},
		{[]string{"aa:"}, nil, true},
	}
	for _, tc := range tests {
		got, err := ExpandPointList(tc.values, 19)
		if (err != nil) != tc.wantErr || !slices.Equal(got, tc.want) {
			t.Errorf("ExpandPointList(%q) = %v, %v; want %v", tc.values, got, err, tc.want)
		}
	}
	// A full-board rectangle holds every point once.
	all, err := ExpandPointList([]string{"aa:ss"}, 19)
	if err != nil || len(all) != 361 {
		t.Fatalf("aa:ss gave %d points, %v", len(all), err)
	}
}

func TestSplitCompose(t *testing.T) {
	c, err := ParseString(`(;LB[pd:A][dp:a\:b]AP[GoGui:1.4.9])`)
	if err != nil {
		t.Fatal(err)
	}
	labels := c[0].GetAll("LB")
	for i, want := range [][2]string{{"pd", "A"}, {"dp", "a:b"}} {
		a, b, ok := SplitCompose(labels[i])
		if !ok || a != want[0] || b != want[1] {
			t.Errorf("SplitCompose(%q) = %q, %q, %v", labels[i], a, b, ok)
		}
	}
	if _, _, ok := SplitCompose("pd"); ok {
		t.Error(`SplitCompose("pd") found a colon`)
	}
}
