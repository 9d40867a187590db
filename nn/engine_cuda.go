//go:build cuda

package nn

import G "gorgonia.org/gorgonia"

// GraphBackend names the engine the gorgonia graphs (Trainer,
// GraphEvaluator) run on: "cuda" in this build.
//
// This file compiles only with -tags cuda, which also switches gorgonia to
// its CUDA engine; that needs the CUDA toolkit, cuDNN and gorgonia's
// generated kernels (cudagen), and cgo. The dedicated Evaluator stays on the
// CPU.
const GraphBackend = "cuda"

// engineOpts asks the tape machine to run every op that has a CUDA kernel
// on the GPU.
func engineOpts() []G.VMOpt { return []G.VMOpt{G.UseCudaFor()} }
