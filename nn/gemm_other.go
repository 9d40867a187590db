//go:build !amd64 || purego || openblas

package nn

// hasFMA is false: the micro-kernels are assembly for amd64 only, and a
// cgo package (the openblas build) cannot hold Go assembly.
const hasFMA = false

func kernel6x16(k int, a []float32, rs, ks int, b []float32, c []float32, ldc int) {
	kernel6x16Go(k, a, rs, ks, b, c, ldc)
}

func kernel1x16(k int, a []float32, ks int, b []float32, c []float32) {
	kernelRowGo(k, a, ks, b, c)
}

func kernelConv(act []float32, cin int, rowOff *[kernelRows]int, g *tapGeom, b []float32, c []float32, ldc int) {
	g.check(act, cin, rowOff)
	kernelConvGo(act, cin, rowOff, g, b, c, ldc)
}

// kernelConvBR is never called without the assembly (Evaluator.fused is
// false there); it exists for the build.
func kernelConvBR(x []float32, cin int, rowOff *[kernelRows]int, g *tapGeom, b []float32,
	act []float32, cRowOff *[kernelRows]int, bias []float32, residual bool) {
	panic("nn: fused convolution kernel without the assembly")
}
