package simplex

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestBitQueuePopsInHeapOrder drives a bitQueue with interleaved pushes and pops of
// distinct keys — mostly beyond the last pop, as in a triangular solve, sometimes behind
// it — and checks every pop against the least (greatest) key present, in both modes; the
// queue is reused across traversals, including one abandoned before it was empty.
func TestBitQueuePopsInHeapOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var q bitQueue
		for range rapid.IntRange(1, 4).Draw(t, "traversals") {
			n := rapid.IntRange(1, 300).Draw(t, "n")
			max := rapid.Bool().Draw(t, "max")
			q.reset(n, max)
			present := map[int]bool{}
			var ref []int
			last := -1
			if max {
				last = n
			}
			abandon := rapid.IntRange(0, 5).Draw(t, "abandon") == 0
			for step := range rapid.IntRange(1, 200).Draw(t, "steps") {
				if len(ref) > 0 && rapid.Bool().Draw(t, "pop") {
					var want int
					if max {
						want = slices.Max(ref)
					} else {
						want = slices.Min(ref)
					}
					var got int
					if max {
						got = q.popMax()
					} else {
						got = q.popMin()
					}
					if got != want {
						t.Fatalf("step %d: popped %d, want %d (keys %v)", step, got, want, ref)
					}
					ref = slices.DeleteFunc(ref, func(k int) bool { return k == want })
					delete(present, want)
					last = got
					continue
				}
				// Keys up to n+64 exercise growth past the size given to reset.
				k := rapid.IntRange(0, n+63).Draw(t, "key")
				if present[k] {
					continue
				}
				if k != last && rapid.IntRange(0, 9).Draw(t, "behind") != 0 {
					// Mostly keep to the solve's direction (beyond the last pop).
					if (!max && k < last) || (max && k > last) {
						continue
					}
				}
				present[k] = true
				ref = append(ref, k)
				if max {
					q.pushMax(k)
				} else {
					q.pushMin(k)
				}
				if q.count != len(ref) {
					t.Fatalf("count %d, want %d", q.count, len(ref))
				}
			}
			if abandon {
				continue // the next reset must clear what is left
			}
			for len(ref) > 0 {
				var got, want int
				if max {
					want, got = slices.Max(ref), q.popMax()
				} else {
					want, got = slices.Min(ref), q.popMin()
				}
				if got != want {
					t.Fatalf("draining: popped %d, want %d", got, want)
				}
				ref = slices.DeleteFunc(ref, func(k int) bool { return k == want })
			}
		}
	})
}
