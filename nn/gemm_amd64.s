//go:build amd64 && !purego && !openblas

#include "textflag.h"

// func kern6x16(k int, a *float32, rowBytes, kBytes int, b *float32, c *float32, ldcBytes int)
//
// C[r][j] = sum_kk A[r][kk]·P[kk][j] for r < 6, j < 16, A[r][kk] at
// a + r·rowBytes + kk·kBytes: twelve YMM accumulators (Y0..Y11), the panel
// row in Y12/Y13, A broadcasts in Y14/Y15.
TEXT ·kern6x16(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ rowBytes+16(FP), R8
	MOVQ kBytes+24(FP), R11
	MOVQ b+32(FP), DI
	MOVQ c+40(FP), DX
	MOVQ ldcBytes+48(FP), R9
	LEAQ (SI)(R8*2), R10
	ADDQ R8, R10            // R10 = row 3
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	TESTQ CX, CX
	JE    store6

loop6:
	VMOVUPS      (DI), Y12
	VMOVUPS      32(DI), Y13
	VBROADCASTSS (SI), Y14
	VFMADD231PS  Y12, Y14, Y0
	VFMADD231PS  Y13, Y14, Y1
	VBROADCASTSS (SI)(R8*1), Y15
	VFMADD231PS  Y12, Y15, Y2
	VFMADD231PS  Y13, Y15, Y3
	VBROADCASTSS (SI)(R8*2), Y14
	VFMADD231PS  Y12, Y14, Y4
	VFMADD231PS  Y13, Y14, Y5
	VBROADCASTSS (R10), Y15
	VFMADD231PS  Y12, Y15, Y6
	VFMADD231PS  Y13, Y15, Y7
	VBROADCASTSS (R10)(R8*1), Y14
	VFMADD231PS  Y12, Y14, Y8
	VFMADD231PS  Y13, Y14, Y9
	VBROADCASTSS (R10)(R8*2), Y15
	VFMADD231PS  Y12, Y15, Y10
	VFMADD231PS  Y13, Y15, Y11
	ADDQ         R11, SI
	ADDQ         R11, R10
	ADDQ         $64, DI
	DECQ         CX
	JNE          loop6

store6:
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	ADDQ    R9, DX
	VMOVUPS Y2, (DX)
	VMOVUPS Y3, 32(DX)
	ADDQ    R9, DX
	VMOVUPS Y4, (DX)
	VMOVUPS Y5, 32(DX)
	ADDQ    R9, DX
	VMOVUPS Y6, (DX)
	VMOVUPS Y7, 32(DX)
	ADDQ    R9, DX
	VMOVUPS Y8, (DX)
	VMOVUPS Y9, 32(DX)
	ADDQ    R9, DX
	VMOVUPS Y10, (DX)
	VMOVUPS Y11, 32(DX)
	VZEROUPPER
	RET

// func kern1x16(k int, a *float32, kBytes int, b *float32, c *float32)
//
// One row, A[kk] at a + kk·kBytes, summed in the same order as each row of
// kern6x16, so a row's result does not depend on where it falls in A.
TEXT ·kern1x16(SB), NOSPLIT, $0-40
	MOVQ   k+0(FP), CX
	MOVQ   a+8(FP), SI
	MOVQ   kBytes+16(FP), R11
	MOVQ   b+24(FP), DI
	MOVQ   c+32(FP), DX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	TESTQ  CX, CX
	JE     store1

loop1:
	VBROADCASTSS (SI), Y14
	VFMADD231PS  (DI), Y14, Y0
	VFMADD231PS  32(DI), Y14, Y1
	ADDQ         R11, SI
	ADDQ         $64, DI
	DECQ         CX
	JNE          loop1

store1:
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	VZEROUPPER
	RET

// func kern6x16conv(taps, cin int, a *float32, rowOff *int, tapOff *int, b *float32, c *float32, ldcBytes int)
//
// A convolution without im2col: row r of A is, tap after tap, the cin
// floats at a + rowOff[r] + tapOff[t] (byte offsets), so that A[r][t·cin +
// ci] is channel ci of the neighbour t of output point r in a zero-bordered
// activation buffer. Same sums in the same order as kern6x16 on the
// im2col rows. taps and cin must be at least 1.
TEXT ·kern6x16conv(SB), NOSPLIT, $0-64
	MOVQ   a+16(FP), SI
	MOVQ   rowOff+24(FP), DX
	MOVQ   0(DX), R8
	ADDQ   SI, R8
	MOVQ   8(DX), R9
	ADDQ   SI, R9
	MOVQ   16(DX), R10
	ADDQ   SI, R10
	MOVQ   24(DX), R11
	ADDQ   SI, R11
	MOVQ   32(DX), R12
	ADDQ   SI, R12
	MOVQ   40(DX), R13
	ADDQ   SI, R13
	MOVQ   tapOff+32(FP), DX
	MOVQ   b+40(FP), DI
	MOVQ   taps+0(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

tapc:
	MOVQ (DX), AX
	MOVQ cin+8(FP), BX

innerc:
	VMOVUPS      (DI), Y12
	VMOVUPS      32(DI), Y13
	VBROADCASTSS (R8)(AX*1), Y14
	VFMADD231PS  Y12, Y14, Y0
	VFMADD231PS  Y13, Y14, Y1
	VBROADCASTSS (R9)(AX*1), Y15
	VFMADD231PS  Y12, Y15, Y2
	VFMADD231PS  Y13, Y15, Y3
	VBROADCASTSS (R10)(AX*1), Y14
	VFMADD231PS  Y12, Y14, Y4
	VFMADD231PS  Y13, Y14, Y5
	VBROADCASTSS (R11)(AX*1), Y15
	VFMADD231PS  Y12, Y15, Y6
	VFMADD231PS  Y13, Y15, Y7
	VBROADCASTSS (R12)(AX*1), Y14
	VFMADD231PS  Y12, Y14, Y8
	VFMADD231PS  Y13, Y14, Y9
	VBROADCASTSS (R13)(AX*1), Y15
	VFMADD231PS  Y12, Y15, Y10
	VFMADD231PS  Y13, Y15, Y11
	ADDQ         $4, AX
	ADDQ         $64, DI
	DECQ         BX
	JNE          innerc
	ADDQ         $8, DX
	DECQ         CX
	JNE          tapc

	MOVQ    c+48(FP), DX
	MOVQ    ldcBytes+56(FP), R9
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	ADDQ    R9, DX
	VMOVUPS Y2, (DX)
	VMOVUPS Y3, 32(DX)
	ADDQ    R9, DX
	VMOVUPS Y4, (DX)
	VMOVUPS Y5, 32(DX)
	ADDQ    R9, DX
	VMOVUPS Y6, (DX)
	VMOVUPS Y7, 32(DX)
	ADDQ    R9, DX
	VMOVUPS Y8, (DX)
	VMOVUPS Y9, 32(DX)
	ADDQ    R9, DX
	VMOVUPS Y10, (DX)
	VMOVUPS Y11, 32(DX)
	VZEROUPPER
	RET

// func kern6x16convBR(taps, cin int, a *float32, rowOff *int, tapOff *int, b *float32, c *float32, cRowOff *int, bias *float32, residual int)
//
// kern6x16conv with the layer's epilogue fused: row r of the result goes
// to c + cRowOff[r] (bytes) as max(0, sum + bias (+ what is there when
// residual ≠ 0)), the order of the Go epilogue, so the same bits.
TEXT ·kern6x16convBR(SB), NOSPLIT, $0-80
	MOVQ   a+16(FP), SI
	MOVQ   rowOff+24(FP), DX
	MOVQ   0(DX), R8
	ADDQ   SI, R8
	MOVQ   8(DX), R9
	ADDQ   SI, R9
	MOVQ   16(DX), R10
	ADDQ   SI, R10
	MOVQ   24(DX), R11
	ADDQ   SI, R11
	MOVQ   32(DX), R12
	ADDQ   SI, R12
	MOVQ   40(DX), R13
	ADDQ   SI, R13
	MOVQ   tapOff+32(FP), DX
	MOVQ   b+40(FP), DI
	MOVQ   taps+0(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

tapf:
	MOVQ (DX), AX
	MOVQ cin+8(FP), BX

innerf:
	VMOVUPS      (DI), Y12
	VMOVUPS      32(DI), Y13
	VBROADCASTSS (R8)(AX*1), Y14
	VFMADD231PS  Y12, Y14, Y0
	VFMADD231PS  Y13, Y14, Y1
	VBROADCASTSS (R9)(AX*1), Y15
	VFMADD231PS  Y12, Y15, Y2
	VFMADD231PS  Y13, Y15, Y3
	VBROADCASTSS (R10)(AX*1), Y14
	VFMADD231PS  Y12, Y14, Y4
	VFMADD231PS  Y13, Y14, Y5
	VBROADCASTSS (R11)(AX*1), Y15
	VFMADD231PS  Y12, Y15, Y6
	VFMADD231PS  Y13, Y15, Y7
	VBROADCASTSS (R12)(AX*1), Y14
	VFMADD231PS  Y12, Y14, Y8
	VFMADD231PS  Y13, Y14, Y9
	VBROADCASTSS (R13)(AX*1), Y15
	VFMADD231PS  Y12, Y15, Y10
	VFMADD231PS  Y13, Y15, Y11
	ADDQ         $4, AX
	ADDQ         $64, DI
	DECQ         BX
	JNE          innerf
	ADDQ         $8, DX
	DECQ         CX
	JNE          tapf

	MOVQ    bias+64(FP), AX
	VMOVUPS (AX), Y12
	VMOVUPS 32(AX), Y13
	VXORPS  Y14, Y14, Y14
	MOVQ    c+48(FP), SI
	MOVQ    cRowOff+56(FP), DX
	MOVQ    residual+72(FP), BX
	MOVQ    0(DX), R8
	ADDQ    SI, R8
	VADDPS  Y12, Y0, Y0
	VADDPS  Y13, Y1, Y1
	TESTQ   BX, BX
	JE      nores0
	VADDPS  (R8), Y0, Y0
	VADDPS  32(R8), Y1, Y1

nores0:
	VMAXPS  Y14, Y0, Y0
	VMAXPS  Y14, Y1, Y1
	VMOVUPS Y0, (R8)
	VMOVUPS Y1, 32(R8)
	MOVQ    8(DX), R8
	ADDQ    SI, R8
	VADDPS  Y12, Y2, Y2
	VADDPS  Y13, Y3, Y3
	TESTQ   BX, BX
	JE      nores1
	VADDPS  (R8), Y2, Y2
	VADDPS  32(R8), Y3, Y3

nores1:
	VMAXPS  Y14, Y2, Y2
	VMAXPS  Y14, Y3, Y3
	VMOVUPS Y2, (R8)
	VMOVUPS Y3, 32(R8)
	MOVQ    16(DX), R8
	ADDQ    SI, R8
	VADDPS  Y12, Y4, Y4
	VADDPS  Y13, Y5, Y5
	TESTQ   BX, BX
	JE      nores2
	VADDPS  (R8), Y4, Y4
	VADDPS  32(R8), Y5, Y5

nores2:
	VMAXPS  Y14, Y4, Y4
	VMAXPS  Y14, Y5, Y5
	VMOVUPS Y4, (R8)
	VMOVUPS Y5, 32(R8)
	MOVQ    24(DX), R8
	ADDQ    SI, R8
	VADDPS  Y12, Y6, Y6
	VADDPS  Y13, Y7, Y7
	TESTQ   BX, BX
	JE      nores3
	VADDPS  (R8), Y6, Y6
	VADDPS  32(R8), Y7, Y7

nores3:
	VMAXPS  Y14, Y6, Y6
	VMAXPS  Y14, Y7, Y7
	VMOVUPS Y6, (R8)
	VMOVUPS Y7, 32(R8)
	MOVQ    32(DX), R8
	ADDQ    SI, R8
	VADDPS  Y12, Y8, Y8
	VADDPS  Y13, Y9, Y9
	TESTQ   BX, BX
	JE      nores4
	VADDPS  (R8), Y8, Y8
	VADDPS  32(R8), Y9, Y9

nores4:
	VMAXPS  Y14, Y8, Y8
	VMAXPS  Y14, Y9, Y9
	VMOVUPS Y8, (R8)
	VMOVUPS Y9, 32(R8)
	MOVQ    40(DX), R8
	ADDQ    SI, R8
	VADDPS  Y12, Y10, Y10
	VADDPS  Y13, Y11, Y11
	TESTQ   BX, BX
	JE      nores5
	VADDPS  (R8), Y10, Y10
	VADDPS  32(R8), Y11, Y11

nores5:
	VMAXPS  Y14, Y10, Y10
	VMAXPS  Y14, Y11, Y11
	VMOVUPS Y10, (R8)
	VMOVUPS Y11, 32(R8)
	VZEROUPPER
	RET
