package tsumego

import (
	"context"
	"fmt"
	"slices"

	"lifezero/featmodel"
	"lifezero/features"
	"lifezero/game"
)

// areaReach is how far from the nearest stone (in king moves) a point of a
// problem's area may lie. Collections like Cho Chikun's show a corner or a
// side group on an otherwise empty board; two lines around the stones hold
// the answers, as they hold the moves the solver's regions allow.
const areaReach = 2

// Area returns the legal moves of pos within areaReach king moves of a
// stone, in point order.
func Area(pos *game.Position) []game.Point {
	b := &pos.Board
	size := b.Size()
	var moves []game.Point
	for y := range size {
		for x := range size {
			p := b.Point(x, y)
			if b.At(p) != game.Empty || !nearStone(b, x, y) || !pos.IsLegal(p) {
				continue
			}
			moves = append(moves, p)
		}
	}
	return moves
}

func nearStone(b *game.Board, x, y int) bool {
	size := b.Size()
	for dy := -areaReach; dy <= areaReach; dy++ {
		for dx := -areaReach; dx <= areaReach; dx++ {
			nx, ny := x+dx, y+dy
			if nx < 0 || ny < 0 || nx >= size || ny >= size {
				continue
			}
			if c := b.At(b.Point(nx, ny)); c == game.Black || c == game.White {
				return true
			}
		}
	}
	return false
}

// Featurizer computes the candidates' feature ids of the solver's and the
// trainer's positions: a Fuego-style feature set followed by the
// life-and-death features. Positions are seen without history (a problem
// starts there), so the features that look at the last moves stay off in
// training and in search alike.
type Featurizer struct {
	Set *features.Extractor
	LD  LD
}

// NewFeaturizer puts the life-and-death ids after set's. A Featurizer
// whose LD.Base is negative leaves them out (an ablation).
func NewFeaturizer(set *features.Extractor) Featurizer {
	return Featurizer{Set: set, LD: LD{Base: int32(set.NumFeatures())}}
}

// NumFeatures returns the number of ids.
func (f Featurizer) NumFeatures() int {
	if f.LD.Base < 0 {
		return f.Set.NumFeatures()
	}
	return f.Set.NumFeatures() + NumLD
}

// Names returns every id's name, in id order.
func (f Featurizer) Names() []string {
	if f.LD.Base < 0 {
		return f.Set.Names()
	}
	return append(f.Set.Names(), f.LD.Names()...)
}

// Scratch is a goroutine's reusable extraction space.
type Scratch struct {
	mv  features.Moves
	ids []int32
	cut []int
}

// Candidates computes the ids of moves (legal board moves or game.Pass) in
// pos for its side to move, and calls visit with each move's index and ids
// (valid only during the call).
func (f Featurizer) Candidates(pos *game.Position, moves []game.Point, s *Scratch, visit func(i int, ids []int32)) error {
	noHistory := features.History{Last: game.NoPoint, OwnPrev: game.NoPoint}
	if err := f.Set.ExtractMoves(pos, noHistory, moves, &s.mv); err != nil {
		return err
	}
	for i, m := range moves {
		s.ids = append(s.ids[:0], s.mv.Features(i)...)
		if m != game.Pass && f.LD.Base >= 0 {
			s.ids = f.LD.appendMove(pos, m, &s.mv, s.ids)
		}
		visit(i, s.ids)
	}
	return nil
}

// Samples turns problems into move-prediction samples: the moves of each
// problem's Area (the book's move added if it lies outside), the book's
// move played.
func (f Featurizer) Samples(problems []Problem) (featmodel.Samples, error) {
	var out featmodel.Samples
	var s Scratch
	for _, p := range problems {
		// ExtractMoves asks only for empty points; an answer the rules
		// forbid (a ko retake, a suicide) must not become a sample.
		if !p.Position.IsLegal(p.Answer) {
			return nil, fmt.Errorf("tsumego: %s: the answer %s is not legal for %v", p.Name, p.Position.PointString(p.Answer), p.Position.ToMove())
		}
		moves := Area(p.Position)
		if !slices.Contains(moves, p.Answer) {
			moves = append(moves, p.Answer)
		}
		smp := featmodel.Sample{Played: slices.Index(moves, p.Answer)}
		err := f.Candidates(p.Position, moves, &s, func(_ int, ids []int32) {
			smp.Candidates = append(smp.Candidates, featmodel.Candidate(slices.Clone(ids)))
		})
		if err != nil {
			return nil, fmt.Errorf("tsumego: %s: %w", p.Name, err)
		}
		out = append(out, smp)
	}
	return out, nil
}

// Accuracy is a model's move prediction on samples: the share whose played
// move ranks first, and within the first three (ties count against the
// model: a played move tied with others ranks last among them).
type Accuracy struct {
	Samples     int
	Top1, Top3  float64
	MeanRank    float64
	MeanMoves   float64
	UniformTop1 float64 // the expected top-1 of a uniform random ranker
}

// Measure ranks the played move of every sample by score.
func Measure(ctx context.Context, samples featmodel.Samples, score func(featmodel.Candidate) float64) (Accuracy, error) {
	var a Accuracy
	for i := range samples {
		if err := ctx.Err(); err != nil {
			return a, err
		}
		s := &samples[i]
		played := score(s.Candidates[s.Played])
		rank := 1
		for j, c := range s.Candidates {
			if j != s.Played && score(c) >= played {
				rank++
			}
		}
		a.Samples++
		if rank == 1 {
			a.Top1++
		}
		if rank <= 3 {
			a.Top3++
		}
		a.MeanRank += float64(rank)
		a.MeanMoves += float64(len(s.Candidates))
		a.UniformTop1 += 1 / float64(len(s.Candidates))
	}
	a.average()
	return a, nil
}

// average turns the fields, summed over the samples, into means.
func (a *Accuracy) average() {
	if a.Samples > 0 {
		n := float64(a.Samples)
		a.Top1, a.Top3, a.MeanRank, a.MeanMoves, a.UniformTop1 = a.Top1/n, a.Top3/n, a.MeanRank/n, a.MeanMoves/n, a.UniformTop1/n
	}
}
