package nn

import (
	"fmt"

	G "gorgonia.org/gorgonia"
)

// DoDiff makes the graph ops ADOps as well: gorgonia's LispMachine
// differentiates by calling it after the forward pass (the tape machine
// uses SymDiff). Each adds its inputs' gradients into their dual values,
// computed by the same gradient ops as SymDiff's.

// DoDiff adds dx and dw, from the output's gradient, to x's and w's.
func (op convOp) DoDiff(ctx G.ExecutionContext, inputs G.Nodes, output *G.Node) error {
	if len(inputs) != 2 {
		return fmt.Errorf("%v: %d inputs, want 2", op, len(inputs))
	}
	gy, err := output.Grad()
	if err != nil {
		return fmt.Errorf("%v: %w", op, err)
	}
	dw, err := convFilterGradOp{convBase: op.base("conv.dw"), buf: &convBufs{}}.Do(inputs[0].Value(), gy)
	if err != nil {
		return err
	}
	if err := addGrad(inputs[1], dw); err != nil {
		return err
	}
	if op.noInputGrad {
		return nil
	}
	dx, err := convInputGradOp{op.base("conv.dx"), &convBufs{}}.Do(inputs[1].Value(), gy)
	if err != nil {
		return err
	}
	return addGrad(inputs[0], dx)
}

// DoDiff adds dx, dγ, dβ (and the residual's gradient) to the inputs'.
func (op *bnOp) DoDiff(ctx G.ExecutionContext, inputs G.Nodes, output *G.Node) error {
	if len(inputs) != op.Arity() {
		return fmt.Errorf("%v: %d inputs, want %d", op, len(inputs), op.Arity())
	}
	gy, err := output.Grad()
	if err != nil {
		return fmt.Errorf("%v: %w", op, err)
	}
	dx, err := bnGradXOp{bn: op}.Do(inputs[0].Value(), inputs[1].Value(), output.Value(), gy)
	if err != nil {
		return err
	}
	if err := addGrad(inputs[0], dx); err != nil {
		return err
	}
	for i, op := range []bnGradParamOp{{bn: op}, {bn: op, beta: true}} {
		v, err := op.Do(dx)
		if err != nil {
			return err
		}
		if err := addGrad(inputs[1+i], v); err != nil {
			return err
		}
	}
	if !op.residual {
		return nil
	}
	dres := gy
	if op.relu {
		if dres, err = (reluGradOp{bn: op}).Do(dx); err != nil {
			return err
		}
	}
	return addGrad(inputs[3], dres)
}

// addGrad adds v to n's gradient (its dual value's derivative).
func addGrad(n *G.Node, v G.Value) error {
	g, err := n.Grad()
	if err != nil {
		return fmt.Errorf("gradient of %v: %w", n, err)
	}
	dst, ok1 := g.Data().([]float32)
	src, ok2 := v.Data().([]float32)
	if !ok1 || !ok2 || len(dst) != len(src) {
		return fmt.Errorf("gradient of %v: %T of %d floats, adding %T", n, g.Data(), g.Shape().TotalSize(), v.Data())
	}
	for i, x := range src {
		dst[i] += x
	}
	return nil
}

var (
	_ G.ADOp = convOp{}
	_ G.ADOp = (*bnOp)(nil)
	_ G.SDOp = convOp{}
	_ G.SDOp = (*bnOp)(nil)
)
