//go:build openblas

package nn

// #cgo LDFLAGS: -lopenblas
// #include <cblas.h>
import "C"

import "unsafe"

// BLASBackend names the SGEMM the Evaluator uses: OpenBLAS in this build
// (tag openblas; needs cgo and libopenblas-dev). OpenBLAS threads each call
// itself; OPENBLAS_NUM_THREADS=1 suits many goroutines evaluating at once.
const BLASBackend = "openblas"

// sgemmNT computes C = A·Bᵀ for row-major A (m×k, stride lda), B (n×k,
// stride ldb) and C (m×n, stride ldc).
func sgemmNT(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	C.cblas_sgemm(C.CblasRowMajor, C.CblasNoTrans, C.CblasTrans,
		C.blasint(m), C.blasint(n), C.blasint(k), 1,
		(*C.float)(unsafe.Pointer(&a[0])), C.blasint(lda),
		(*C.float)(unsafe.Pointer(&b[0])), C.blasint(ldb), 0,
		(*C.float)(unsafe.Pointer(&c[0])), C.blasint(ldc))
}
