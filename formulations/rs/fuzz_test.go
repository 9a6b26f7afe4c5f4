package rs

import (
	"encoding/binary"
	"math"
	"testing"
)

// FuzzWorstCaseDemand feeds arbitrary bit patterns as bin probabilities, width, θ and δ:
// nothing panics, invalid input is an error, and on valid input the bisection agrees
// with the scan and the worst-case distribution is in the ball.
func FuzzWorstCaseDemand(f *testing.F) {
	add := func(w, theta, delta float64, probs ...float64) {
		b := make([]byte, 0, 8*(3+len(probs)))
		for _, x := range append([]float64{w, theta, delta}, probs...) {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		}
		f.Add(b)
	}
	add(1, 0.9, 0.7, 0.25, 0.25, 0.25, 0.25)
	add(12.5, 0.9, 0.7, 0.1, 0.2, 0.4, 0.2, 0.1)
	add(0.7, 0.5, 0, 1, 0, 0, 1e-300)
	add(1, 0.999999, 2, 1, 1, 4.450147717014403e-308)
	add(1, 0.3, 1, 0, 0, 1)
	add(math.NaN(), 0.5, 0.5, 1)
	add(1, 1, 0, 1)
	f.Fuzz(func(t *testing.T, data []byte) {
		var xs []float64
		for len(data) >= 8 && len(xs) < 200 {
			xs = append(xs, math.Float64frombits(binary.LittleEndian.Uint64(data)))
			data = data[8:]
		}
		if len(xs) < 3 {
			return
		}
		w, theta, delta, probs := xs[0], xs[1], xs[2], xs[3:]
		ref, err := NewPMF(w, probs)
		if err != nil {
			return
		}
		bis, err := WorstCaseDemand(ref, theta, delta)
		scan, err2 := WorstCaseDemandScan(ref, theta, delta)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("bisection err %v, scan err %v", err, err2)
		}
		if err != nil {
			return
		}
		if bis.Bin != scan.Bin {
			t.Fatalf("bisection bin %d, scan bin %d", bis.Bin, scan.Bin)
		}
		p, e, err := WorstCaseDistribution(ref, theta, delta)
		if err != nil || e.Bin != bis.Bin {
			t.Fatalf("WorstCaseDistribution: %v, bin %d", err, e.Bin)
		}
		if kl, _ := ref.KL(p); kl > delta+1e-9*math.Max(1, delta) {
			t.Fatalf("p* has KL %v > delta %v", kl, delta)
		}
		if _, err := CrossCheck(ref, theta, delta); err != nil {
			t.Fatal(err)
		}
	})
}
