package sched

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchInstance is a deterministic instance with n jobs over two resources and T slots,
// one of each common utility family in turn.
func benchInstance(n, T int, seed uint64) *Instance {
	rng := rand.New(rand.NewPCG(seed, 1))
	in := &Instance{Name: "bench", Horizon: T, HorizonSource: "file"}
	for r, name := range []string{"cpu", "memory"} {
		c := make([]int, T)
		for s := range c {
			c[s] = 10*n/T + 5 + r
		}
		in.Resources = append(in.Resources, Resource{Name: name, Capacity: c})
	}
	for i := range n {
		d := float64(rng.IntN(T) + 1)
		var u Utility
		switch i % 4 {
		case 0:
			u = Sigmoid{Priority: 1 + 9*rng.Float64(), Deadline: d, Decay: 2 * rng.Float64()}
		case 1:
			u = Linear{Priority: 5 * rng.Float64(), Budget: d, Slope: rng.Float64(), Hard: i%8 == 1}
		case 2:
			u = Step{Value: 5, Deadline: d, Late: 1}
		default:
			v := make([]float64, 8)
			for k := range v {
				v[k] = float64(8 - k)
			}
			u = Table{Values: v}
		}
		in.Jobs = append(in.Jobs, Job{
			ID: fmt.Sprintf("job-%d", i), Demand: []int{1 + rng.IntN(9), rng.IntN(5)},
			Release: 1, TaskSlots: 1, MaxParallel: rng.IntN(4), Utility: u,
		})
	}
	return in
}

// BenchmarkParse measures Decode's full pipeline (tree, Go checks, JSON Schema) against
// encoding/json unmarshalling the same bytes into an untyped value, as the reference.
func BenchmarkParse(b *testing.B) {
	for _, n := range []int{100, 10_000} {
		var buf bytes.Buffer
		if err := Encode(&buf, benchInstance(n, 200, 1)); err != nil {
			b.Fatal(err)
		}
		data := buf.Bytes()
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("jobs=%d/Parse", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Parse(data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("jobs=%d/reference-json.Unmarshal", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var v any
				if err := json.Unmarshal(data, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
