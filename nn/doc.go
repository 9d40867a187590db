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
//   - Evaluator: the fast forward pass for search, in plain Go. Batch norm is
//     folded into the convolutions, which run as im2col + SGEMM (gonum's pure
//     Go BLAS by default, OpenBLAS with the build tag "openblas"). It is safe
//     for concurrent use.
//   - GraphEvaluator: the same forward pass as a gorgonia graph in evaluation
//     mode, kept as the reference the Evaluator is tested against.
//
// Weights are stored in a versioned binary file (Save, Load; see
// weightsfile.go). Inputs are built by Config.Encode; Planes documents the
// input planes.
//
// The default build needs no cgo. The build tag "openblas" runs the
// Evaluator's SGEMM on OpenBLAS through cgo (apt-get install
// libopenblas-dev), about three times less CPU per position than gonum; set
// OPENBLAS_NUM_THREADS=1 when many goroutines evaluate at once. The build
// tag "cuda" selects gorgonia's CUDA engine for the graphs; it needs the
// CUDA toolkit and is never required.
//
// Outputs: the policy is over N²+1 moves (index y*N+x, pass last; see
// MoveIndex), the value is the side to move's expected result in [-1, 1],
// and d-win output d-1 is the probability that the living side of the
// problem lives within d moves.
package nn
