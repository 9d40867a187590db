package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// naiveNT is C = A·Bᵀ by the definition, in float64: the truth the
// products are checked against.
func naiveNT(m, n, k int, a []float32, lda int, b []float32, ldb int) []float64 {
	c := make([]float64, m*n)
	for i := range m {
		for j := range n {
			var s float64
			for kk := range k {
				s += float64(a[i*lda+kk]) * float64(b[j*ldb+kk])
			}
			c[i*n+j] = s
		}
	}
	return c
}

func randFloats(n int, rng *rand.Rand) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return v
}

// TestPackedProduct checks the packed micro-kernel path (assembly where
// the CPU has it) and the build's SGEMM against the definition, for shapes
// with partial row blocks and panels, strided A and C, and k of 0 to 600.
func TestPackedProduct(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sh := range []struct{ m, n, k int }{
		{1, 1, 1}, {6, 16, 1}, {7, 17, 3}, {5, 15, 2}, {49, 64, 576}, {49, 50, 98},
		{13, 99, 256}, {100, 1, 49}, {361, 64, 18}, {12, 32, 0}, {200, 256, 49},
	} {
		t.Run(fmt.Sprintf("%dx%dx%d", sh.m, sh.n, sh.k), func(t *testing.T) {
			lda, ldc := sh.k+3, sh.n+5
			a := randFloats(sh.m*lda, rng)
			b := randFloats(sh.n*sh.k, rng)
			want := naiveNT(sh.m, sh.n, sh.k, a, lda, b, sh.k)
			mb := matB{n: sh.n, k: sh.k, raw: b, packed: packB(b, sh.k, sh.n, sh.k)}
			check := func(name string, c []float32) {
				for i := range sh.m {
					for j := range ldc {
						got := float64(c[i*ldc+j])
						if j >= sh.n {
							if got != -7 {
								t.Fatalf("%s: C[%d][%d] past n written: %v", name, i, j, got)
							}
							continue
						}
						if w := want[i*sh.n+j]; math.Abs(got-w) > 1e-4*(1+math.Abs(w)) {
							t.Fatalf("%s: C[%d][%d] = %v, want %v", name, i, j, got, w)
						}
					}
				}
			}
			fresh := func() []float32 {
				c := make([]float32, sh.m*ldc)
				for i := range c {
					c[i] = -7
				}
				return c
			}
			c := fresh()
			gemmPackedRows(0, sh.m, a, lda, 1, &mb, c, ldc)
			check("packed", c)
			c = fresh()
			mb.mulNT(sh.m, a, lda, c, ldc)
			check("mulNT", c)
			c = fresh()
			(&matB{n: sh.n, k: sh.k, raw: b}).mulNT(sh.m, a, lda, c, ldc)
			check("sgemmNT ("+BLASBackend+")", c)
		})
	}
}

// TestKernelMatchesGo checks the assembly micro-kernels against the
// portable Go kernel (the same sums, so equal to rounding).
func TestKernelMatchesGo(t *testing.T) {
	if !hasFMA {
		t.Skip("no AVX2+FMA kernels on this CPU or architecture")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, k := range []int{0, 1, 2, 3, 64, 577} {
		lda := k + 1
		a := randFloats(kernelRows*lda, rng)
		b := randFloats(k*panelCols, rng)
		got, want := make([]float32, kernelRows*panelCols), make([]float32, kernelRows*panelCols)
		kernel6x16(k, a, lda, 1, b, got, panelCols)
		kernel6x16Go(k, a, lda, 1, b, want, panelCols)
		row, rowWant := make([]float32, panelCols), make([]float32, panelCols)
		kernel1x16(k, a[:max(k, 1)], 1, b, row)
		kernelRowGo(k, a, 1, b, rowWant)
		for i := range want {
			if d := math.Abs(float64(got[i] - want[i])); d > 1e-4*(1+math.Abs(float64(want[i]))) {
				t.Fatalf("k=%d: 6x16 [%d] = %v, Go %v", k, i, got[i], want[i])
			}
		}
		for i := range rowWant {
			if d := math.Abs(float64(row[i] - rowWant[i])); d > 1e-4*(1+math.Abs(float64(rowWant[i]))) {
				t.Fatalf("k=%d: 1x16 [%d] = %v, Go %v", k, i, row[i], rowWant[i])
			}
		}
	}
}

// TestGraphSgemm checks the Sgemm gorgonia's graphs use against gonum's
// for every transpose pair and alpha/beta case, with strided operands and
// partial blocks; beta = 0 must ignore NaNs already in C.
func TestGraphSgemm(t *testing.T) {
	g := graphBLAS{bufs: &sync.Pool{New: func() any { return new([]float32) }}}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, sh := range []struct{ m, n, k int }{{1, 1, 1}, {7, 17, 5}, {64, 49, 576}, {3136, 64, 9}, {13, 256, 33}} {
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				for _, ab := range [][2]float32{{1, 0}, {0.5, 0}, {1, 1}, {-2, 0.25}} {
					name := fmt.Sprintf("%dx%dx%d/%c%c/alpha=%v,beta=%v", sh.m, sh.n, sh.k, tA, tB, ab[0], ab[1])
					rowsA, colsA := sh.m, sh.k
					if tA == blas.Trans {
						rowsA, colsA = sh.k, sh.m
					}
					rowsB, colsB := sh.k, sh.n
					if tB == blas.Trans {
						rowsB, colsB = sh.n, sh.k
					}
					lda, ldb, ldc := colsA+2, colsB+1, sh.n+3
					a, b := randFloats(rowsA*lda, rng), randFloats(rowsB*ldb, rng)
					c0 := randFloats(sh.m*ldc, rng)
					if ab[1] == 0 {
						c0[0] = float32(math.NaN())
					}
					want, got := append([]float32(nil), c0...), append([]float32(nil), c0...)
					if ab[1] == 0 {
						want[0] = 0 // gonum ignores C when beta = 0 as well
					}
					gonum.Implementation{}.Sgemm(tA, tB, sh.m, sh.n, sh.k, ab[0], a, lda, b, ldb, ab[1], want, ldc)
					g.Sgemm(tA, tB, sh.m, sh.n, sh.k, ab[0], a, lda, b, ldb, ab[1], got, ldc)
					for i := range want {
						if d := math.Abs(float64(got[i] - want[i])); !(d <= 1e-3*(1+math.Abs(float64(want[i])))) {
							t.Fatalf("%s: C[%d] = %v, gonum %v", name, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// TestForwardPathsAgree runs one network through the three ways the
// Evaluator can run its tower (the fused direct kernel, the direct kernel
// with the epilogue in Go, im2col + SGEMM) on a filter count that leaves a
// partial panel and a batch that leaves partial row blocks: they sum in
// the same order, so they must agree to the bit where the packed kernels
// run, and to 1e-5 elsewhere.
func TestForwardPathsAgree(t *testing.T) {
	c := Config{Board: 7, Blocks: 2, Filters: 24, D: 10, MoveNumberPlanes: 3, ValueHidden: 16}
	w, err := NewWeights(c, 4)
	if err != nil {
		t.Fatal(err)
	}
	planes := randomPlanes(c, 5, rand.New(rand.NewPCG(8, 9)))
	type result struct {
		p, d [][]float32
		v    []float32
	}
	var results []result
	for _, mode := range []struct{ direct, fused bool }{{true, true}, {true, false}, {false, false}} {
		e, err := NewEvaluator(w)
		if err != nil {
			t.Fatal(err)
		}
		if mode.direct && !e.direct {
			continue // no packed weights in this build
		}
		e.direct, e.fused = mode.direct, mode.fused && e.fused
		p, v, d, err := e.Forward(planes, 5)
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, result{p, d, v})
	}
	tol := 1e-5
	if usePacked {
		tol = 0
	}
	for i, r := range results[1:] {
		if m := maxDiff(results[0].p, r.p, results[0].v, r.v, results[0].d, r.d); m > tol {
			t.Errorf("path %d differs from the first by %g", i+1, m)
		}
	}
}
