//go:build openblas

package nn

// #cgo LDFLAGS: -lopenblas
// #include <cblas.h>
import "C"

import (
	"sync"
	"unsafe"
)

// BLASBackend names the SGEMM the Evaluator uses: OpenBLAS in this build
// (tag openblas; needs cgo and libopenblas-dev). OpenBLAS threads each call
// itself; OPENBLAS_NUM_THREADS=1 suits many goroutines evaluating at once.
const BLASBackend = "openblas"

// usePacked is false: this build runs every product on OpenBLAS.
const usePacked = false

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

// fastSgemmAvailable reports whether fastSgemm beats gonum's Sgemm here.
func fastSgemmAvailable() bool { return true }

// fastSgemm is the general Sgemm of the gorgonia graphs (graphblas.go), on
// OpenBLAS.
func fastSgemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int,
	b []float32, ldb int, beta float32, c []float32, ldc int, _ *sync.Pool) {
	ta, tb := C.enum_CBLAS_TRANSPOSE(C.CblasNoTrans), C.enum_CBLAS_TRANSPOSE(C.CblasNoTrans)
	if tA {
		ta = C.CblasTrans
	}
	if tB {
		tb = C.CblasTrans
	}
	C.cblas_sgemm(C.CblasRowMajor, ta, tb, C.blasint(m), C.blasint(n), C.blasint(k), C.float(alpha),
		(*C.float)(unsafe.Pointer(&a[0])), C.blasint(lda),
		(*C.float)(unsafe.Pointer(&b[0])), C.blasint(ldb), C.float(beta),
		(*C.float)(unsafe.Pointer(&c[0])), C.blasint(ldc))
}
