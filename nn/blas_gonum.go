//go:build !openblas

package nn

import (
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// BLASBackend names the SGEMM the Evaluator uses: gonum's pure Go BLAS in
// the default build, OpenBLAS with the build tag openblas.
const BLASBackend = "gonum"

// usePacked selects the packed AVX2+FMA micro-kernels (gemm.go) for the
// Evaluator where the CPU has them; elsewhere gonum's SGEMM runs.
var usePacked = hasFMA

// Tiles of C for gonum's SGEMM. A product of fewer than four 64×64 blocks
// of C runs serially with dot products over the whole of k, several times
// faster per flop than gonum's parallel path, which cuts k into blocks of
// 64 as well. So sgemmNT cuts C into such tiles and runs them itself.
const (
	tileRows = 64
	tileCols = 192
)

// sgemmNT computes C = A·Bᵀ for row-major A (m×k, stride lda), B (n×k,
// stride ldb) and C (m×n, stride ldc), tile by tile on up to GOMAXPROCS
// goroutines.
func sgemmNT(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	rowTiles := (m + tileRows - 1) / tileRows
	colTiles := (n + tileCols - 1) / tileCols
	tiles := rowTiles * colTiles
	run := func(t int) {
		i0, j0 := (t/colTiles)*tileRows, (t%colTiles)*tileCols
		i1, j1 := min(m, i0+tileRows), min(n, j0+tileCols)
		gonum.Implementation{}.Sgemm(blas.NoTrans, blas.Trans, i1-i0, j1-j0, k,
			1, a[i0*lda:], lda, b[j0*ldb:], ldb, 0, c[i0*ldc+j0:], ldc)
	}
	workers := min(tiles, runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for t := range tiles {
			run(t)
		}
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := w; t < tiles; t += workers {
				run(t)
			}
		}()
	}
	wg.Wait()
}

// fastSgemmAvailable reports whether fastSgemm beats gonum's Sgemm here.
func fastSgemmAvailable() bool { return usePacked }

// fastSgemm is the general Sgemm of the gorgonia graphs (graphblas.go).
func fastSgemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int,
	b []float32, ldb int, beta float32, c []float32, ldc int, bufs *sync.Pool) {
	sgemmPacked(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, bufs)
}
