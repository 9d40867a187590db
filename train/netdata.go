package train

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"

	"lifezero/game"
	"lifezero/nn"
	"lifezero/selfplay"
)

// NetData is the network's training set in memory, sample-major, in the
// layout of nn.Batch.
type NetData struct {
	Board                    int
	InputSize, PolicySize, D int
	N                        int
	Planes                   []float32 // N × InputSize
	Policy                   []float32 // N × PolicySize
	Value                    []float32 // N
	DWin, DMask              []float32 // N × D
}

// LoadNetData reads self-play sample datasets, oldest first, into one
// training set that keeps the newest maxSamples samples (0: all): the
// sliding window of recent generations.
func LoadNetData(ctx context.Context, dirs []string, maxSamples int) (*NetData, error) {
	if len(dirs) == 0 {
		return nil, fmt.Errorf("train: no sample datasets")
	}
	var parts []*selfplay.Samples
	total := 0
	for i := len(dirs) - 1; i >= 0; i-- {
		if maxSamples > 0 && total >= maxSamples {
			break
		}
		s, _, err := selfplay.ReadSamples(ctx, dirs[i])
		if err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
		if len(parts) > 0 && (s.InputSize != parts[0].InputSize || s.PolicySize != parts[0].PolicySize || s.D != parts[0].D) {
			return nil, fmt.Errorf("train: samples %s hold %d/%d/%d planes/policy/d-win floats, %s %d/%d/%d: one network shape per window",
				dirs[i], s.InputSize, s.PolicySize, s.D, dirs[len(dirs)-1], parts[0].InputSize, parts[0].PolicySize, parts[0].D)
		}
		parts = append(parts, s)
		total += s.N
	}
	first := parts[0]
	d := &NetData{InputSize: first.InputSize, PolicySize: first.PolicySize, D: first.D}
	d.Board = int(math.Round(math.Sqrt(float64(first.PolicySize - 1))))
	if d.Board*d.Board+1 != first.PolicySize {
		return nil, fmt.Errorf("train: samples %s: policy of %d moves is not N²+1", dirs[len(dirs)-1], first.PolicySize)
	}
	// parts is newest first; append oldest first, dropping the oldest rows
	// beyond maxSamples.
	skip := 0
	if maxSamples > 0 && total > maxSamples {
		skip = total - maxSamples
	}
	for i := len(parts) - 1; i >= 0; i-- {
		s := parts[i]
		from := min(skip, s.N)
		skip -= from
		d.append(s, from)
	}
	if d.N == 0 {
		return nil, fmt.Errorf("train: the sample datasets hold no samples")
	}
	return d, nil
}

func (d *NetData) append(s *selfplay.Samples, from int) {
	d.Planes = append(d.Planes, s.Planes[from*s.InputSize:]...)
	d.Policy = append(d.Policy, s.Policy[from*s.PolicySize:]...)
	d.Value = append(d.Value, s.Value[from:]...)
	d.DWin = append(d.DWin, s.DWin[from*s.D:]...)
	d.DMask = append(d.DMask, s.DMask[from*s.D:]...)
	d.N += s.N - from
}

// check reports whether the data fits a network config.
func (d *NetData) check(c nn.Config) error {
	if d.InputSize != c.InputSize() || d.PolicySize != c.PolicySize() || d.D != c.D {
		return fmt.Errorf("train: samples hold %d planes floats, %d policy, %d d-win; network %v wants %d, %d, %d",
			d.InputSize, d.PolicySize, d.D, c, c.InputSize(), c.PolicySize(), c.D)
	}
	return nil
}

// fingerprint identifies the data for checkpoints (a checksum of the
// targets, which differ between any two real sample sets).
func (d *NetData) fingerprint() string {
	h := sha256.New()
	var buf [4]byte
	for _, arr := range [][]float32{d.Value, d.Policy, d.DWin} {
		for _, v := range arr {
			binary.LittleEndian.PutUint32(buf[:], math.Float32bits(v))
			h.Write(buf[:])
		}
	}
	fmt.Fprintf(h, "%d %d %d %d", d.N, d.InputSize, d.PolicySize, d.D)
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// batcher draws training batches: step s draws its samples (with
// replacement) and symmetries from the seed and s alone, so a resumed run
// sees the same batches as an uninterrupted one.
type batcher struct {
	d       *NetData
	size    int
	seed    uint64
	augment bool
	perm    [game.NumSymmetries][]int // perm[s][i]: where point i goes under s
	batch   nn.Batch
}

func newBatcher(d *NetData, size int, seed uint64, augment bool) (*batcher, error) {
	b := &batcher{d: d, size: size, seed: seed, augment: augment}
	board, err := game.NewBoard(d.Board)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	n := d.Board
	for s := range game.NumSymmetries {
		b.perm[s] = make([]int, n*n)
		for y := range n {
			for x := range n {
				qx, qy := board.XY(board.Transform(game.Symmetry(s), board.Point(x, y)))
				b.perm[s][y*n+x] = qy*n + qx
			}
		}
	}
	b.batch = nn.Batch{
		Planes: make([]float32, size*d.InputSize), Policy: make([]float32, size*d.PolicySize),
		Value: make([]float32, size), DWin: make([]float32, size*d.D), DMask: make([]float32, size*d.D), N: size,
	}
	return b, nil
}

// draw fills the batch of step.
func (b *batcher) draw(step int) nn.Batch {
	rng := rand.New(rand.NewPCG(b.seed, uint64(step)))
	d := b.d
	for i := range b.size {
		j := rng.IntN(d.N)
		sym := game.Identity
		if b.augment {
			sym = game.Symmetry(rng.IntN(game.NumSymmetries))
		}
		b.transform(sym, d.Planes[j*d.InputSize:(j+1)*d.InputSize], b.batch.Planes[i*d.InputSize:(i+1)*d.InputSize])
		b.transform(sym, d.Policy[j*d.PolicySize:(j+1)*d.PolicySize], b.batch.Policy[i*d.PolicySize:(i+1)*d.PolicySize])
		b.batch.Value[i] = d.Value[j]
		copy(b.batch.DWin[i*d.D:(i+1)*d.D], d.DWin[j*d.D:(j+1)*d.D])
		copy(b.batch.DMask[i*d.D:(i+1)*d.D], d.DMask[j*d.D:(j+1)*d.D])
	}
	return b.batch
}

// transform copies src to dst mapping every N×N plane by the symmetry;
// floats after the last whole plane (the policy's pass) are copied as
// they are.
func (b *batcher) transform(sym game.Symmetry, src, dst []float32) {
	perm := b.perm[sym]
	area := len(perm)
	planes := len(src) / area
	for k := range planes {
		in, out := src[k*area:(k+1)*area], dst[k*area:(k+1)*area]
		if sym == game.Identity {
			copy(out, in)
			continue
		}
		for i, v := range in {
			out[perm[i]] = v
		}
	}
	copy(dst[planes*area:], src[planes*area:])
}
