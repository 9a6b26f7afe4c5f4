package tas

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/coraopt/coraopt/workload"
)

func TestQuickArrivals(t *testing.T) {
	for _, n := range []int{1000, 2000, 10000, 100000} {
		in, err := workload.Arrivals(n, false, 1)
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		res, err := OnionPeel(context.Background(), in, Options{NoSchedule: true})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("n=%d %v layers=%d stats=%+v\n", n, time.Since(t0), len(res.Layers), res.Stats)
	}
}
