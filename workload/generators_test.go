package workload

import (
	"reflect"
	"testing"
)

// TestGeneratorsDeterministic: the same seed gives the same instance, another seed
// another one.
func TestGeneratorsDeterministic(t *testing.T) {
	gens := map[string]func(seed uint64) (any, error){
		"sigmoid": func(s uint64) (any, error) { return Sigmoid(30, 20, s) },
		"paper":   func(s uint64) (any, error) { return CORAPaperScaled(30, 40, s) },
		"rs":      func(s uint64) (any, error) { return RSGaussian(30, 20, s) },
		"wcde":    func(s uint64) (any, error) { return WCDEReferences(5, 100, s) },
	}
	for name, gen := range gens {
		a, err := gen(1)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, _ := gen(1)
		c, _ := gen(2)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: seed 1 twice gives different instances", name)
		}
		if reflect.DeepEqual(a, c) {
			t.Errorf("%s: seeds 1 and 2 give the same instance", name)
		}
	}
}

// TestGeneratedLoad: Sigmoid loads its constant capacity to at most 90% and RSGaussian
// sizes it from the worst-case demands, so both are feasible by volume.
func TestGeneratedLoad(t *testing.T) {
	in, err := Sigmoid(50, 20, 3)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, j := range in.Jobs {
		total += j.Demand[0]
	}
	capacity := in.Resources[0].Capacity[0] * in.Horizon
	if 10*total > 9*capacity+9*in.Horizon || total > capacity {
		t.Errorf("sigmoid: demand %d against capacity %d (want at most 90%%, rounded up per slot)", total, capacity)
	}
	rs, err := RSGaussian(20, 20, 3)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Robust == nil || rs.Robust.Theta != RSParams.Theta || rs.Jobs[0].Runtime == nil {
		t.Errorf("RS instance lacks its robust block or runtimes: %+v", rs.Robust)
	}
}
