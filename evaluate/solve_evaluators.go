package evaluate

import (
	"fmt"
	"slices"
	"strings"

	"lifezero/rzs"
)

// EvaluatorNames lists the built-in evaluators' names.
func EvaluatorNames() []string {
	return []string{EvaluatorHeuristic, EvaluatorUniform, EvaluatorLD, EvaluatorLDNoEyes, EvaluatorLDNoPass,
		EvaluatorLDB, EvaluatorLDProbe, EvaluatorLDVital, EvaluatorLDBNoShapes, EvaluatorLDBNakade}
}

// builtinEvaluator returns the built-in evaluator of a name, nil if none.
func builtinEvaluator(name string) rzs.Evaluator {
	switch name {
	case EvaluatorHeuristic:
		return rzs.Heuristic{}
	case EvaluatorUniform:
		return rzs.Uniform{}
	case EvaluatorLD:
		return rzs.LD{}
	case EvaluatorLDNoEyes:
		return rzs.LD{NoEyes: true}
	case EvaluatorLDNoPass:
		return rzs.LD{NoPassShare: true}
	case EvaluatorLDB, "":
		return rzs.LDB()
	case EvaluatorLDProbe:
		return rzs.LD{Probe: true}
	case EvaluatorLDVital:
		return rzs.LD{Benson: true}
	case EvaluatorLDBNoShapes:
		return rzs.LDBNoShapes()
	case EvaluatorLDBNakade:
		ld := rzs.LDB()
		ld.Nakade = true
		return ld
	}
	return nil
}

// defaultMemberEvaluators is the PortfolioEvaluator of a portfolio that
// names none where DefaultPortfolioEvaluator applies: that evaluator for
// every member after the first, except those that drop the depth discount
// the first has, which search with DefaultUndiscountedEvaluator; one name
// when every member keeps the first's discount. It is keyed to the
// members' settings, not to their indices, since rzs.PortfolioMembers
// skips the settings already off: with safety and the proof bonus off,
// the member that drops the discount is member 2. c's settings have their
// defaults filled in.
func (c SolveConfig) defaultMemberEvaluators() string {
	members, err := rzs.PortfolioMembers(c.options(), c.settingMembers())
	if err != nil {
		return DefaultPortfolioEvaluator // Validate names the error
	}
	names := make([]string, len(members)-1)
	for k, m := range members[1:] {
		names[k] = DefaultPortfolioEvaluator
		if m.DepthDiscount != members[0].DepthDiscount {
			names[k] = DefaultUndiscountedEvaluator
		}
	}
	if !slices.Contains(names, DefaultUndiscountedEvaluator) {
		return DefaultPortfolioEvaluator
	}
	return strings.Join(names, ",")
}

// memberEvaluatorNames is PortfolioEvaluator as the names of the members
// after the first that search with settings of their own (not
// OnlineMember's twin): its list, or its one name for each of them.
func (c SolveConfig) memberEvaluatorNames() []string {
	names := strings.Split(c.PortfolioEvaluator, ",")
	if len(names) == 1 {
		return slices.Repeat(names, max(c.settingMembers()-1, 1))
	}
	return names
}

// portfolioEvaluatorsError says what is wrong with PortfolioEvaluator, ""
// when it is one built-in evaluator or a list of one per member after the
// first.
func (c SolveConfig) portfolioEvaluatorsError() string {
	names, want := c.memberEvaluatorNames(), c.settingMembers()-1
	if len(names) != want {
		return fmt.Sprintf("%d names for a portfolio of %d%s: want one for every member after the first with settings of its own, or %d, one each", len(names), c.Portfolio, c.twinNote(), want)
	}
	for _, name := range names {
		if name == "" || builtinEvaluator(name) == nil {
			return fmt.Sprintf("%q is no built-in evaluator (want one of %s, the list without spaces)", name, strings.Join(EvaluatorNames(), ", "))
		}
	}
	return ""
}
