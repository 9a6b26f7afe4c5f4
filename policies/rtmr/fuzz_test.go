package rtmr

import "testing"

// Whatever numbers a job carries, Arrive returns a decision or an error naming a field;
// it never panics, and an admitted job's vectors stay sorted.
func FuzzArrive(f *testing.F) {
	f.Add(0.0, 10.0, 1.0, 2.0, 1, 0.5, 1.0, 1.0, 1.0)
	f.Add(-1.0, 0.0, 0.0, -2.0, -1, 2.0, 0.0, 1.0, 1.0)
	f.Add(1e308, 1e308, 1e-308, 1e308, 3, 0.1, 1e-300, 1e300, 1.0)
	f.Fuzz(func(t *testing.T, arrival, deadline, s1, s2 float64, reduces int, share, eta, cm, cr float64) {
		if reduces > 1000 || reduces < -1000 {
			return
		}
		var shares []float64
		if reduces == 2 {
			shares = []float64{share, 1 - share}
		}
		j := Job{ID: "x", Arrival: arrival, Deadline: deadline, MapSizes: []float64{s1, s2}, Reduces: reduces,
			ReduceShares: shares, Est: &Estimates{Eta: eta, CmMax: cm, CrMax: cr}}
		c := Cluster{Workers: []Worker{{MapSlots: 2, ReduceSlots: 1, MapSpeed: 1, ReduceSpeed: 1}}}
		s, err := NewRTMR(c, SchedulerConfig{Feedback: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []Scheduler{s, mustDC(t, c), NewFIFO()} {
			ok, err := p.Arrive(max(arrival, 0), j)
			if err != nil && ok {
				t.Fatalf("%s: admitted with error %v", p.Name(), err)
			}
		}
		for _, r := range s.adm.order {
			for k := 1; k < len(r.tm); k++ {
				if r.tm[k] < r.tm[k-1] {
					t.Fatalf("T^m not sorted: %v", r.tm)
				}
			}
		}
	})
}
