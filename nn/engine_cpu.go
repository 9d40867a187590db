//go:build !cuda

package nn

import G "gorgonia.org/gorgonia"

// GraphBackend names the engine the gorgonia graphs (Trainer,
// GraphEvaluator) run on: "cpu" in the default build, "cuda" with the build
// tag cuda.
const GraphBackend = "cpu"

// engineOpts are the tape-machine options that select the engine.
func engineOpts() []G.VMOpt { return nil }
