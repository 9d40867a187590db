package pipelines

import (
	"fmt"
	"strings"
)

// Order returns the stages in the order they run: every stage after the
// stages it reads, ties broken by file order.
func (p *Pipeline) Order() []*Stage { return append([]*Stage(nil), p.order...) }

// Stage returns the stage called name.
func (p *Pipeline) Stage(name string) (*Stage, bool) {
	for _, st := range p.Stages {
		if st.Name == name {
			return st, true
		}
	}
	return nil, false
}

// Deps returns the stages whose outputs st reads, in input order.
func (st *Stage) Deps() []*Stage { return append([]*Stage(nil), st.deps...) }

// Plan returns, in run order, the stages named in only and every stage they
// need; with no names, every stage.
func (p *Pipeline) Plan(only []string) ([]*Stage, error) {
	if len(only) == 0 {
		return p.Order(), nil
	}
	need := map[*Stage]bool{}
	var visit func(*Stage)
	visit = func(st *Stage) {
		if need[st] {
			return
		}
		need[st] = true
		for _, d := range st.deps {
			visit(d)
		}
	}
	for _, name := range only {
		st, ok := p.Stage(name)
		if !ok {
			return nil, fmt.Errorf("pipelines: %s has no stage %q (stages: %s)", p.File, name, strings.Join(p.stageNames(), ", "))
		}
		visit(st)
	}
	var plan []*Stage
	for _, st := range p.order {
		if need[st] {
			plan = append(plan, st)
		}
	}
	return plan, nil
}

func (p *Pipeline) stageNames() []string {
	names := make([]string, len(p.Stages))
	for i, st := range p.Stages {
		names[i] = st.Name
	}
	return names
}

// findCycle returns a cycle of stages (first stage repeated at the end), or
// nil if the input graph is acyclic.
func findCycle(stages []*Stage) []*Stage {
	const (
		unseen = iota
		onPath
		done
	)
	state := map[*Stage]int{}
	var path []*Stage
	var cycle []*Stage
	var visit func(*Stage) bool
	visit = func(st *Stage) bool {
		state[st] = onPath
		path = append(path, st)
		for _, d := range st.deps {
			switch state[d] {
			case onPath:
				for i, s := range path {
					if s == d {
						cycle = append(append([]*Stage(nil), path[i:]...), d)
						return true
					}
				}
			case unseen:
				if visit(d) {
					return true
				}
			}
		}
		path = path[:len(path)-1]
		state[st] = done
		return false
	}
	for _, st := range stages {
		if state[st] == unseen && visit(st) {
			return cycle
		}
	}
	return nil
}

// topoOrder orders an acyclic stage graph: repeatedly the first stage in file
// order whose inputs are all placed.
func topoOrder(stages []*Stage) []*Stage {
	placed := map[*Stage]bool{}
	var order []*Stage
	for len(order) < len(stages) {
		before := len(order)
		for _, st := range stages {
			if placed[st] || !allPlaced(st.deps, placed) {
				continue
			}
			placed[st] = true
			order = append(order, st)
			break
		}
		if len(order) == before { // a cycle: callers check with findCycle first
			break
		}
	}
	return order
}

func allPlaced(deps []*Stage, placed map[*Stage]bool) bool {
	for _, d := range deps {
		if !placed[d] {
			return false
		}
	}
	return true
}
