package cluster

import (
	"context"
	"fmt"
	"sort"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
)

// Pending is a unit of work the workflow is waiting for.
type Pending struct {
	Beat            // its last heartbeat (Unit empty until the first one)
	Activity string // the activity type: Plan, Check, Shard or Stage
	Worker   string // the worker that last took it
	Attempt  int32  // 1 for the first try
	State    string // scheduled, started, cancel requested
}

// String describes the unit in a line: "net: training steps 223/600 on w1".
func (p Pending) String() string {
	s := p.Unit
	if s == "" {
		s = p.Activity
	}
	if p.What != "" {
		s += ": " + p.What
		if p.Total > 0 {
			s += fmt.Sprintf(" %d/%d", p.Done, p.Total)
		} else {
			s += fmt.Sprintf(" %d", p.Done)
		}
	}
	if p.Worker != "" {
		s += " on " + p.Worker
	} else {
		s += " (" + p.State + ")"
	}
	if p.Attempt > 1 {
		s += fmt.Sprintf(", attempt %d", p.Attempt)
	}
	return s
}

// Pending returns the units the workflow is waiting for, with their last
// heartbeats, sorted by unit.
func (s *Submission) Pending(ctx context.Context, c client.Client) ([]Pending, error) {
	d, err := c.DescribeWorkflowExecution(ctx, s.ID, s.RunID())
	if err != nil {
		return nil, fmt.Errorf("cluster: describe workflow %s: %w", s.ID, err)
	}
	dc := converter.GetDefaultDataConverter()
	var out []Pending
	for _, a := range d.GetPendingActivities() {
		p := Pending{Activity: a.GetActivityType().GetName(), Worker: a.GetLastWorkerIdentity(), Attempt: a.GetAttempt(),
			State: a.GetState().String()}
		if hb := a.GetHeartbeatDetails(); hb != nil && len(hb.GetPayloads()) > 0 {
			_ = dc.FromPayloads(hb, &p.Beat) // a detail of another shape leaves the beat empty
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out, nil
}
