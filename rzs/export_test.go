package rzs

import (
	"math/rand/v2"

	"lifezero/game"
)

// RandomProblem gives the external tests (package rzs_test, which may
// import the network evaluator) the soundness tests' random positions.
func RandomProblem(rng *rand.Rand, maxEmpty int) *game.Problem { return randomProblem(rng, maxEmpty) }

// CheckBatchAsAlone is checkBatchAsAlone for the external tests.
var CheckBatchAsAlone = checkBatchAsAlone
