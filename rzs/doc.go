// Package rzs solves life-and-death problems by relevance-zone based search
// (paper 001): a won position carries a relevance zone (RZ) such that every
// position with the same stones inside the zone is also won, so at AND
// nodes the defender's moves outside the zone of a refuted ("null") move need
// no search. It holds the zone dilation of the paper's appendix (DL-1, the
// OR-node capture rule, CR-1's suicide rule, CR-2's border rule), the
// AND/OR proof rule (nodeProof.apply, in proof.go: the one rule applying a
// proven child, which every form uses), the MCTS form's bookkeeping on top
// of package mcts (MCTS-Solver), the depth-first AchieveGoal and df-pn, a
// transposition table of proven positions, the evaluators that guide the
// search (among them a proof-number bonus, Options.ProofBonus, that steers
// the living side towards the moves leaving the killer the fewest moves to
// refute), a recognition of life under alternating play that the judge may
// add to Benson's algorithm (safeLife, in safety.go: a small exhaustive
// local search whose wins carry their own zones), an exhaustive reference
// solver used by the soundness tests, and solution trees written as SGF.
//
// Soundness choices where the paper is silent are commented where they are
// made; the main ones: a defender move counts as a null move only if neither
// it nor any stone it captures lies in the child's zone; zones are closed
// under blocks (a stone in the zone brings its whole block); the living side
// never passes (a pass lets the killer end the game by passing), and it may
// never take a ko (the problem files' disallow_ko), so the killer never faces
// a ko ban that the zone pattern would not show.
package rzs
