//go:build cuda

package nn

import G "gorgonia.org/gorgonia"

// GraphBackend names the engine the gorgonia graphs (Trainer,
// GraphEvaluator) run on: "cuda" in this build.
//
// This file compiles only with -tags cuda, which switches gorgonia itself
// to its CUDA build: its tape machines then run every op that has a CUDA
// kernel on the GPU (the machine locks its OS thread while it runs). That
// needs cgo, the CUDA toolkit, cuDNN and gorgonia's generated kernels
// (cudagen), none of which the default build uses. The dedicated Evaluator
// stays on the CPU.
const GraphBackend = "cuda"

// engineOpts are the tape-machine options that select the engine: none,
// the cuda build of gorgonia chooses the GPU by itself.
func engineOpts() []G.VMOpt { return nil }
