//go:build amd64 && !purego && !openblas

package nn

import (
	"fmt"

	"golang.org/x/sys/cpu"
)

// hasFMA reports whether the AVX2 + FMA micro-kernels can run here.
var hasFMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// kernel6x16 sets the 6×16 block of C at c (stride ldc floats) to A times
// the packed panel b (k × 16), where A[r][kk] = a[r·rs + kk·ks] for r < 6.
// The slices must reach that far: checked here, as the assembly does not.
func kernel6x16(k int, a []float32, rs, ks int, b []float32, c []float32, ldc int) {
	if !hasFMA || k == 0 {
		kernel6x16Go(k, a, rs, ks, b, c, ldc)
		return
	}
	_ = a[5*rs+(k-1)*ks]
	_ = b[k*panelCols-1]
	_ = c[5*ldc+panelCols-1]
	kern6x16(k, &a[0], rs*4, ks*4, &b[0], &c[0], ldc*4)
}

// kernel1x16 sets c[0:16] to the row A[kk] = a[kk·ks] times the panel b.
func kernel1x16(k int, a []float32, ks int, b []float32, c []float32) {
	if !hasFMA || k == 0 {
		kernelRowGo(k, a, ks, b, c)
		return
	}
	_ = a[(k-1)*ks]
	_ = b[k*panelCols-1]
	_ = c[panelCols-1]
	kern1x16(k, &a[0], ks*4, &b[0], &c[0])
}

//go:noescape
func kern6x16(k int, a *float32, rowBytes, kBytes int, b *float32, c *float32, ldcBytes int)

//go:noescape
func kern1x16(k int, a *float32, kBytes int, b *float32, c *float32)

// kernelConv sets the 6×16 block of C at c (stride ldc floats) to the
// direct convolution of the zero-bordered activations act: row r reads, for
// each tap t, the cin floats at act[rowOff[r] + g.off[t]:], times the packed
// panel b (taps·cin × 16). Offsets are in floats.
func kernelConv(act []float32, cin int, rowOff *[kernelRows]int, g *tapGeom, b []float32, c []float32, ldc int) {
	g.check(act, cin, rowOff)
	if !hasFMA {
		kernelConvGo(act, cin, rowOff, g, b, c, ldc)
		return
	}
	_ = b[len(g.off)*cin*panelCols-1]
	_ = c[5*ldc+panelCols-1]
	var rb [kernelRows]int
	for r, o := range rowOff {
		rb[r] = o * 4
	}
	kern6x16conv(len(g.off), cin, &act[0], &rb[0], &g.offBytes[0], &b[0], &c[0], ldc*4)
}

//go:noescape
func kern6x16conv(taps, cin int, a *float32, rowOff *int, tapOff *int, b *float32, c *float32, ldcBytes int)

// kernelConvBR is kernelConv with the tower's epilogue: row r of the 6×16
// block goes to act[cRowOff[r]:] as max(0, sum + bias (+ act when
// residual)). Offsets are in floats.
func kernelConvBR(x []float32, cin int, rowOff *[kernelRows]int, g *tapGeom, b []float32,
	act []float32, cRowOff *[kernelRows]int, bias []float32, residual bool) {
	g.check(x, cin, rowOff)
	for _, o := range cRowOff {
		if o < 0 || o+panelCols > len(act) {
			panic(fmt.Sprintf("nn: conv output row at %d outside %d activations", o, len(act)))
		}
	}
	_ = bias[panelCols-1]
	_ = b[len(g.off)*cin*panelCols-1]
	var rb, cb [kernelRows]int
	for r := range rowOff {
		rb[r], cb[r] = rowOff[r]*4, cRowOff[r]*4
	}
	res := 0
	if residual {
		res = 1
	}
	kern6x16convBR(len(g.off), cin, &x[0], &rb[0], &g.offBytes[0], &b[0], &act[0], &cb[0], &bias[0], res)
}

//go:noescape
func kern6x16convBR(taps, cin int, a *float32, rowOff *int, tapOff *int, b *float32, c *float32, cRowOff *int, bias *float32, residual int)
