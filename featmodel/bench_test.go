package featmodel

import (
	"context"
	"testing"
)

// benchSamples imitates 19x19 move data: 250 legal moves per position, each
// with 8 to 12 active features out of 2000.
func benchSamples(n int) Samples {
	rng := newRand(99)
	logGamma := make([]float64, 2000)
	for i := range logGamma {
		logGamma[i] = rng.NormFloat64()
	}
	gen := synth{
		candidates: 250,
		draw:       drawDistinct(8, 12, 0, 2000),
		logStrength: func(c Candidate) float64 {
			s := 0.0
			for _, f := range c {
				s += logGamma[f]
			}
			return s
		},
	}
	return gen.samples(rng, n)
}

func reportSamplesPerSecond(b *testing.B, samples int) {
	b.ReportMetric(float64(samples)/b.Elapsed().Seconds(), "samples/s")
}

// BenchmarkBTIteration times one MM iteration (every feature updated once,
// then the log-likelihood) over packed data.
func BenchmarkBTIteration(b *testing.B) {
	samples := benchSamples(200)
	d, err := packBT(context.Background(), samples, 0)
	if err != nil {
		b.Fatal(err)
	}
	gamma := make([]float64, d.numFeatures)
	for i := range gamma {
		gamma[i] = 1
	}
	d.refresh(gamma)
	n := 0
	for b.Loop() {
		if _, err := d.sweep(context.Background(), gamma); err != nil {
			b.Fatal(err)
		}
		d.refresh(gamma)
		n += len(samples)
	}
	reportSamplesPerSecond(b, n)
}

// BenchmarkLFREpoch times one LFR epoch, the played move paired with every
// other legal move, k = 8.
func BenchmarkLFREpoch(b *testing.B) {
	samples := benchSamples(200)
	cfg := DefaultLFRConfig()
	cfg.Epochs = 1
	n := 0
	for b.Loop() {
		if _, err := TrainLFR(context.Background(), samples, cfg, newRand(1)); err != nil {
			b.Fatal(err)
		}
		n += len(samples)
	}
	reportSamplesPerSecond(b, n)
}

// BenchmarkFBTEpoch times one FBT epoch with Adagrad, k = 8.
func BenchmarkFBTEpoch(b *testing.B) {
	samples := benchSamples(200)
	cfg := DefaultFBTConfig()
	cfg.Epochs = 1
	n := 0
	for b.Loop() {
		if _, err := TrainFBT(context.Background(), samples, cfg, newRand(1)); err != nil {
			b.Fatal(err)
		}
		n += len(samples)
	}
	reportSamplesPerSecond(b, n)
}
