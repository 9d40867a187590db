// Package nn is the network of lifezero: a residual convolutional tower with
// a policy head, a value head and the Faster-to-Life (FTL) d-win head, as in
// paper 001 ("Faster to Life" and "Experiment Details").
//
// It has three views of the same parameters, held in a Weights value:
//
//   - Trainer: a gorgonia (float32) training graph per batch size, with
//     momentum SGD or Adam, weight decay and batch normalisation in training
//     mode. Trainer.Weights exports the parameters and batch-norm running
//     statistics.
//   - Evaluator: the fast forward pass for search, in plain Go and Go
//     assembly. Batch norm is folded into the convolutions. Activations are
//     kept position-major with a zero border, so a 3×3 convolution reads
//     every tap at a fixed offset: on amd64 CPUs with AVX2 and FMA a direct
//     convolution kernel (6 points × 16 filters per call, packed weights,
//     bias, residual and ReLU in its stores) runs the tower without im2col;
//     elsewhere im2col + SGEMM (gonum's pure Go BLAS, or OpenBLAS with the
//     build tag "openblas"). A position's outputs do not depend on the
//     other positions of its batch (to the bit with the assembly). It is
//     safe for concurrent use.
//   - GraphEvaluator: the same forward pass as a gorgonia graph in evaluation
//     mode, kept as the reference the Evaluator is tested against.
//
// Weights are stored in a versioned binary file (Save, Load; see
// weightsfile.go). Inputs are built by Config.Encode; Planes documents the
// input planes.
//
// The default build needs no cgo and is the fast one: its kernels (gemm.go,
// gemm_amd64.s, conv_direct.go) also serve gorgonia's Sgemm (graphblas.go),
// and the graphs' convolutions and batch norms are gorgonia ops of this
// package on the same kernels (graphconv.go, graphbn.go), so training runs
// on them too. The build tag "openblas" runs every
// product on OpenBLAS through cgo instead (apt-get install libopenblas-dev;
// set OPENBLAS_NUM_THREADS=1 when many goroutines evaluate at once); it is
// now slower than the default build, and kept for comparison. The tag
// "purego" drops the assembly. The build
// tag "cuda" selects gorgonia's CUDA engine for the graphs; it needs the
// CUDA toolkit and is never required.
//
// Outputs: the policy is over N²+1 moves (index y*N+x, pass last; see
// MoveIndex), the value is the side to move's expected result in [-1, 1],
// and d-win output d-1 is the probability that the living side of the
// problem lives within d moves.
package nn
