package nn

import (
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	G "gorgonia.org/gorgonia"
)

// graphBLAS is the BLAS the gorgonia graphs (Trainer, GraphEvaluator) run
// on: gonum's, except Sgemm, which goes to the fast product of the build
// (the packed AVX2+FMA kernels, or OpenBLAS with the tag openblas). Sgemm
// is the convolutions and fully connected layers of a training step, about
// 70% of its CPU time on gonum alone.
type graphBLAS struct {
	gonum.Implementation
	bufs *sync.Pool // *[]float32 scratch for packing
}

// installGraphBLAS makes gorgonia use graphBLAS. Gorgonia's BLAS is one
// process-wide setting (G.Use), read without a lock while graphs run, so
// it is set once, before the first graph is built.
var installGraphBLAS = sync.OnceFunc(func() {
	if fastSgemmAvailable() {
		G.Use(graphBLAS{bufs: &sync.Pool{New: func() any { return new([]float32) }}})
	}
})

// Sgemm computes C = alpha·op(A)·op(B) + beta·C (row-major).
func (g graphBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int,
	b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m == 0 || n == 0 || k == 0 || alpha == 0 {
		g.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	fastSgemm(tA != blas.NoTrans, tB != blas.NoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, g.bufs)
}

// sgemmPacked is the general Sgemm on the packed kernels: it packs op(B)
// into panels, reads op(A) in place through strides, and goes through a
// scratch product when alpha ≠ 1 or beta ≠ 0.
func sgemmPacked(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int,
	b []float32, ldb int, beta float32, c []float32, ldc int, bufs *sync.Pool) {
	panels := (n + panelCols - 1) / panelCols
	size := panels * k * panelCols
	direct := alpha == 1 && beta == 0
	if !direct {
		size += m * n
	}
	bp := bufs.Get().(*[]float32)
	defer bufs.Put(bp)
	if cap(*bp) < size {
		*bp = make([]float32, size)
	}
	buf := (*bp)[:size]
	mb := matB{n: n, k: k, packed: buf[:panels*k*panelCols]}
	packOpB(mb.packed, tB, b, ldb, n, k)
	rs, ks := lda, 1
	if tA {
		rs, ks = 1, lda
	}
	if direct {
		mb.mulPacked(m, a, rs, ks, c, ldc)
		return
	}
	t := buf[panels*k*panelCols:]
	mb.mulPacked(m, a, rs, ks, t, n)
	for i := range m {
		ci, ti := c[i*ldc:i*ldc+n], t[i*n:(i+1)*n]
		if beta == 0 { // C may hold NaNs that beta·C must not spread
			for j, v := range ti {
				ci[j] = alpha * v
			}
			continue
		}
		for j, v := range ti {
			ci[j] = alpha*v + beta*ci[j]
		}
	}
}

// packOpB packs op(B) (k×n) into p: B is n×k when trans, else k×n.
func packOpB(p []float32, trans bool, b []float32, ldb, n, k int) {
	if n%panelCols != 0 { // the last panel's padding must be zero
		clear(p[(n/panelCols)*k*panelCols:])
	}
	if trans {
		for j := range n {
			panel := p[(j/panelCols)*k*panelCols:]
			col := j % panelCols
			for kk, v := range b[j*ldb : j*ldb+k] {
				panel[kk*panelCols+col] = v
			}
		}
		return
	}
	for kk := range k {
		row := b[kk*ldb : kk*ldb+n]
		for j0 := 0; j0 < n; j0 += panelCols {
			copy(p[(j0/panelCols)*k*panelCols+kk*panelCols:][:min(panelCols, n-j0)], row[j0:])
		}
	}
}
