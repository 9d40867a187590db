package nn

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// panelCols is the width of a packed panel of B: the micro-kernel's 16
// output columns (two 8-float AVX registers).
const panelCols = 16

// kernelRows is the number of rows of A the micro-kernel takes at once.
const kernelRows = 6

// matB is the right-hand operand of C = A·Bᵀ held both as given (n rows of
// k floats, for BLAS) and packed for the micro-kernel: panel p holds
// columns 16p..16p+15 of Bᵀ k-major (panel[kk·16 + j] = B[16p+j][kk]),
// zero past n. The network's weights are packed once when the Evaluator
// is made; the kernel then streams each panel in order.
type matB struct {
	n, k   int
	raw    []float32 // n × k
	packed []float32 // panels × k × 16, nil when the kernel is not used
}

// newMatB wraps b (n×k, row-major, stride k) and packs it when the packed
// kernel will be used.
func newMatB(b []float32, n, k int) matB {
	mb := matB{n: n, k: k, raw: b[:n*k]}
	if usePacked {
		mb.packed = packB(b, k, n, k)
	}
	return mb
}

// packB packs b (n×k, stride ldb) into panels of 16 columns.
func packB(b []float32, ldb, n, k int) []float32 {
	panels := (n + panelCols - 1) / panelCols
	p := make([]float32, panels*k*panelCols)
	for j := 0; j < n; j++ {
		panel := p[(j/panelCols)*k*panelCols:]
		col := j % panelCols
		row := b[j*ldb : j*ldb+k]
		for kk, v := range row {
			panel[kk*panelCols+col] = v
		}
	}
	return p
}

// mulNT computes C = A·Bᵀ for m rows of A (stride lda) into C (stride
// ldc), overwriting C.
func (b *matB) mulNT(m int, a []float32, lda int, c []float32, ldc int) {
	if m == 0 || b.n == 0 {
		return
	}
	if b.k == 0 { // BLAS rejects a zero leading dimension
		for i := range m {
			clear(c[i*ldc : i*ldc+b.n])
		}
		return
	}
	if b.packed == nil {
		sgemmNT(m, b.n, b.k, a, lda, b.raw, b.k, c, ldc)
		return
	}
	b.mulPacked(m, a, lda, 1, c, ldc)
}

// mulPacked computes C = A·P for the packed b, A[i][kk] = a[i·rs + kk·ks]
// (rs = lda, ks = 1 for row-major A; rs = 1, ks = lda for a transposed
// one), split among goroutines by splitRows.
func (b *matB) mulPacked(m int, a []float32, rs, ks int, c []float32, ldc int) {
	splitRows(m, 2*m*b.n*b.k, func(lo, hi int) {
		gemmPackedRows(lo, hi, a, rs, ks, b, c, ldc)
	})
}

// splitRows runs f over the rows 0..m-1 of a product of the given flops, in
// row ranges that start at multiples of kernelRows (so every row meets the
// same kernel however the work is split), on up to GOMAXPROCS goroutines,
// at least ~2 MFLOP each so that small products stay on one.
func splitRows(m, flops int, f func(lo, hi int)) {
	blocks := (m + kernelRows - 1) / kernelRows
	workers := min(runtime.GOMAXPROCS(0), blocks, max(1, flops/(2<<20)))
	if workers <= 1 {
		f(0, m)
		return
	}
	runChunks(m, max(1, blocks/(4*workers))*kernelRows, workers, f)
}

// runChunks runs f over [0, n) in chunks of the given size, which up to
// workers goroutines take in turn: when the cores are shared and the OS
// deschedules one of them, the others go on with the rest of the work
// instead of waiting for a fixed half of it. Which goroutine runs a chunk
// does not change what f computes for it.
func runChunks(n, chunk, workers int, f func(lo, hi int)) {
	workers = min(workers, (n+chunk-1)/max(chunk, 1)) // no goroutine without a chunk to take
	if workers <= 1 || chunk >= n {
		f(0, n)
		return
	}
	var next atomic.Int64
	run := func() {
		for {
			lo := int(next.Add(int64(chunk))) - chunk
			if lo >= n {
				return
			}
			f(lo, min(n, lo+chunk))
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run()
		}()
	}
	run()
	wg.Wait()
}

// gemmPackedRows computes rows lo..hi-1 of C = A·P with the micro-kernel:
// blocks of 6 rows by 16 columns, the remaining rows one at a time, and the
// last partial panel through a 6×16 buffer.
func gemmPackedRows(lo, hi int, a []float32, rs, ks int, b *matB, c []float32, ldc int) {
	k := b.k
	panels := (b.n + panelCols - 1) / panelCols
	var tmp [kernelRows * panelCols]float32
	i := lo
	for ; i+kernelRows <= hi; i += kernelRows {
		ai := a[i*rs:]
		for p := range panels {
			bp := b.packed[p*k*panelCols : (p+1)*k*panelCols]
			j0 := p * panelCols
			if j0+panelCols <= b.n {
				kernel6x16(k, ai, rs, ks, bp, c[i*ldc+j0:], ldc)
				continue
			}
			kernel6x16(k, ai, rs, ks, bp, tmp[:], panelCols)
			for r := range kernelRows {
				copy(c[(i+r)*ldc+j0:(i+r)*ldc+b.n], tmp[r*panelCols:])
			}
		}
	}
	for ; i < hi; i++ {
		ai := a[i*rs:]
		for p := range panels {
			bp := b.packed[p*k*panelCols : (p+1)*k*panelCols]
			j0 := p * panelCols
			if j0+panelCols <= b.n {
				kernel1x16(k, ai, ks, bp, c[i*ldc+j0:i*ldc+j0+panelCols])
				continue
			}
			kernel1x16(k, ai, ks, bp, tmp[:panelCols])
			copy(c[i*ldc+j0:i*ldc+b.n], tmp[:])
		}
	}
}

// kernel6x16Go is the portable micro-kernel: the reference the assembly
// is tested against, and the kernel where there is no assembly.
func kernel6x16Go(k int, a []float32, rs, ks int, b []float32, c []float32, ldc int) {
	for r := range kernelRows {
		kernelRowGo(k, a[r*rs:], ks, b, c[r*ldc:r*ldc+panelCols])
	}
}

// kernelRowGo sets c[0:16] to the row A[kk] = a[kk·ks] times the panel b.
func kernelRowGo(k int, a []float32, ks int, b []float32, c []float32) {
	var acc [panelCols]float32
	for kk := range k {
		v := a[kk*ks]
		row := b[kk*panelCols : (kk+1)*panelCols]
		for j := range acc {
			acc[j] += v * row[j]
		}
	}
	copy(c[:panelCols], acc[:])
}
