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
// The default build needs no cgo. The build tag "cuda" selects gorgonia's
// CUDA engine for the graphs; it needs the CUDA toolkit and is never required.
package nn
