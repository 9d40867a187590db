//go:build !openblas

package nn

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// BLASBackend names the SGEMM the Evaluator uses: gonum's pure Go BLAS in
// the default build, OpenBLAS with the build tag openblas.
const BLASBackend = "gonum"

// sgemm computes C = A·B for row-major A (m×k, stride lda), B (k×n, stride
// ldb) and C (m×n, stride ldc).
func sgemm(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	gonum.Implementation{}.Sgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, lda, b, ldb, 0, c, ldc)
}
