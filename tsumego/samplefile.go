package tsumego

import (
	"fmt"
	"strconv"

	"lifezero/game"
	"lifezero/sgf"
)

// SamplesFile is the name, in a model directory, of the positions labelled
// by proof that the model was fitted on besides the book (SaveSamples), so
// that they can be read, checked in any SGF editor, and fitted again
// without proving anew (LoadSamples).
const SamplesFile = "proof-samples.sgf"

// SGF properties of a sample beyond the position: the book problem or
// source it was taken From (XF) and its Depth in moves (XD). SGF lets an
// application add properties of its own.
const (
	sgfFrom  = "XF"
	sgfDepth = "XD"
)

// SaveSamples writes samples to path as an SGF collection, atomically: one
// game per sample, its position set up (AB/AW, PL) and its answer as the
// first move, the form Load reads a book problem in. The position's ko
// point and history are not kept: the features do not read them.
func SaveSamples(path string, samples []Problem) error {
	coll := make(sgf.Collection, 0, len(samples))
	for _, s := range samples {
		b := &s.Position.Board
		root := game.NewSGFRoot(b.Size())
		game.AddSGFSetup(root, b)
		root.Add("PL", s.Position.ToMove().String())
		root.Add("GN", s.Name)
		root.Add(sgfFrom, s.From)
		root.Add(sgfDepth, strconv.Itoa(s.Depth))
		move := &sgf.Node{}
		move.Add(s.Position.ToMove().String(), b.SGFMove(s.Answer))
		root.Children = []*sgf.Node{move}
		coll = append(coll, root)
	}
	if err := coll.WriteFile(path); err != nil {
		return fmt.Errorf("tsumego: %w", err)
	}
	return nil
}

// LoadSamples reads a file written by SaveSamples.
func LoadSamples(path string) ([]Problem, error) {
	coll, err := sgf.ParseFile(path)
	if err != nil {
		return nil, fmt.Errorf("tsumego: %s: %w", path, err)
	}
	out := make([]Problem, 0, len(coll))
	for i, root := range coll {
		s, err := sampleFromSGF(root)
		if err != nil {
			return nil, fmt.Errorf("tsumego: %s: game %d: %w", path, i+1, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// sampleFromSGF reads one game of a samples file.
func sampleFromSGF(root *sgf.Node) (Problem, error) {
	pos, err := game.SetupPosition(root)
	if err != nil {
		return Problem{}, err
	}
	answer, err := firstMove(pos, root)
	if err != nil {
		return Problem{}, err
	}
	name, _ := root.Get("GN")
	from, ok := root.Get(sgfFrom)
	if !ok || from == "" {
		return Problem{}, fmt.Errorf("no %s (the problem the sample was taken from)", sgfFrom)
	}
	v, _ := root.Get(sgfDepth)
	depth, err := strconv.Atoi(v)
	if err != nil || depth < 0 {
		return Problem{}, fmt.Errorf("%s[%s] is not a depth", sgfDepth, v)
	}
	return Problem{Name: name, Position: pos, Answer: answer, From: from, Depth: depth}, nil
}
