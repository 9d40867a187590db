package rzs

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"lifezero/game"
)

// solvePortfolioOf is SolvePortfolio over the first n members of
// PortfolioMembers, in Solve's shape.
func solvePortfolioOf(n int) func(context.Context, *game.Problem, Options) Result {
	return func(ctx context.Context, pr *game.Problem, o Options) Result {
		members, err := PortfolioMembers(o, n)
		if err != nil {
			panic(err) // the callers' settings give n distinct members
		}
		res, _ := SolvePortfolio(ctx, pr, members)
		return res
	}
}

// solvePortfolioShared is solvePortfolioOf with one tree pattern table
// the members share through a LockedTable.
func solvePortfolioShared(n int) func(context.Context, *game.Problem, Options) Result {
	return func(ctx context.Context, pr *game.Problem, o Options) Result {
		o.Table = NewLockedTable(NewTreeTable(pr, TableOptions{}))
		return solvePortfolioOf(n)(ctx, pr, o)
	}
}

func TestPortfolioMembers(t *testing.T) {
	on := Options{DepthDiscount: 0.9, FPUReduction: 0.3, ProofBonus: 0.1, Safety: true}
	type member struct {
		discount, fpu float64
		safety        bool
		bonus         float64
	}
	for _, c := range []struct {
		name    string
		base    Options
		n       int
		want    []member
		wantErr string
	}{
		{"all on", on, 5, []member{{0.9, 0.3, true, 0.1}, {0.9, 0, true, 0.1}, {0.9, 0, false, 0}, {1, 0, true, 0.1}, {1, 0, false, 0}}, ""},
		{"two of all on", on, 2, []member{{0.9, 0.3, true, 0.1}, {0.9, 0, true, 0.1}}, ""},
		{"safety and bonus off", Options{DepthDiscount: 0.9, FPUReduction: 0.3}, 3, []member{{0.9, 0.3, false, 0}, {0.9, 0, false, 0}, {1, 0, false, 0}}, ""},
		{"safety and bonus off, too many", Options{DepthDiscount: 0.9, FPUReduction: 0.3}, 4, nil, "4: these settings give only 3"},
		{"fpu off", Options{DepthDiscount: 0.9, Safety: true}, 4, []member{{0.9, 0, true, 0}, {0.9, 0, false, 0}, {1, 0, true, 0}, {1, 0, false, 0}}, ""},
		{"bonus off", Options{DepthDiscount: 0.9, FPUReduction: 0.3, Safety: true}, 5, []member{{0.9, 0.3, true, 0}, {0.9, 0, true, 0}, {0.9, 0, false, 0}, {1, 0, true, 0}, {1, 0, false, 0}}, ""},
		{"discount off as 0", Options{FPUReduction: 0.3}, 2, []member{{0, 0.3, false, 0}, {0, 0, false, 0}}, ""},
		{"fpu off, too many", Options{DepthDiscount: 0.9, Safety: true}, 5, nil, "5: these settings give only 4"},
		{"fpu and safety off", Options{DepthDiscount: 0.9}, 3, nil, "3: these settings give only 2"},
		{"all off", Options{DepthDiscount: 1}, 2, nil, "2: these settings give only 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := PortfolioMembers(c.base, c.n)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("%d members, want %d", len(got), len(c.want))
			}
			for k, o := range got {
				if w := c.want[k]; effectiveDiscount(o.DepthDiscount) != effectiveDiscount(w.discount) || o.FPUReduction != w.fpu ||
					o.Safety != w.safety || o.ProofBonus != w.bonus {
					t.Errorf("member %d: discount %v fpu %v safety %v bonus %v, want %+v", k, o.DepthDiscount, o.FPUReduction, o.Safety, o.ProofBonus, w)
				}
			}
		})
	}
}

// TestPortfolioIsItsMembers checks what SolvePortfolio promises on random
// positions: the members share nothing, so the member whose proof is
// returned searched exactly as it does alone (the same status, first move
// and zone, in no fewer nodes than it takes alone, since the result counts
// every member's); and the portfolio proves every root its member 0
// proves alone within the budget. Both hold as well when the members take
// turns on fewer slots than there are members (Options.Slots).
func TestPortfolioIsItsMembers(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	base := Options{Budget: 3000, Evaluator: LDB(), DepthDiscount: 0.9, FPUReduction: 0.3, ProofBonus: 0.1, Safety: true}
	members, err := PortfolioMembers(base, MaxPortfolio)
	if err != nil {
		t.Fatal(err)
	}
	n := 60
	if testing.Short() {
		n = 20
	}
	provenByOthers := 0
	for range n {
		pr := randomProblem(rng, 12)
		alone := make([]Result, len(members))
		for k, o := range members {
			alone[k] = Solve(context.Background(), pr, o)
		}
		for _, slots := range []int{0, 1, 2} {
			if provenByOthers += checkPortfolio(t, pr, members, alone, slots); t.Failed() {
				return
			}
		}
	}
	t.Logf("%d positions × 3 slot settings; %d proven by a member other than the first where the first alone proves nothing", n, provenByOthers)
}

// checkPortfolio runs members' portfolio on pr, the members taking turns
// on slots of them (0: all at once), and checks it against alone, each
// member's result by itself. It reports 1 when a member other than the
// first proved what the first alone does not.
func checkPortfolio(t *testing.T, pr *game.Problem, members []Options, alone []Result, slots int) int {
	t.Helper()
	members = slices.Clone(members)
	if slots > 0 {
		shared := NewSlots(slots)
		for k := range members {
			members[k].Slots = shared
		}
	}
	res, winner := SolvePortfolio(context.Background(), pr, members)
	if alone[0].Status != Unknown && res.Status == Unknown {
		t.Errorf("%d slots: member 0 alone proves %v, the portfolio nothing:\n%v", slots, alone[0].Status, pr.Start)
		return 0
	}
	if winner < 0 {
		if res.Status != Unknown {
			t.Errorf("%d slots: status %v with no winner", slots, res.Status)
		}
		return 0
	}
	w := alone[winner]
	if res.Status != w.Status || res.FirstMove != w.FirstMove || res.Zone != w.Zone || res.Nodes < w.Nodes {
		t.Errorf("%d slots, member %d: portfolio gives %v %v in %d nodes, alone %v %v in %d:\n%v",
			slots, winner, res.Status, res.FirstMove, res.Nodes, w.Status, w.FirstMove, w.Nodes, pr.Start)
	}
	if alone[0].Status == Unknown {
		return 1
	}
	return 0
}
