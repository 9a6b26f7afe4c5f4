package workpool

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"pgregory.net/rapid"
)

// Results come out in index order and each once, whatever the number of workers and
// however the tasks' finishing order is shuffled.
func TestRunEmitsInIndexOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 40).Draw(t, "n")
		workers := rapid.IntRange(0, 8).Draw(t, "workers")
		yields := rapid.SliceOfN(rapid.IntRange(0, 3), n, n).Draw(t, "yields")
		var progress atomic.Int64
		var got []int
		err := Run(context.Background(), n, Options{Workers: workers, Progress: func() { progress.Add(1) }},
			func(_ context.Context, k int) (int, error) {
				for range yields[k] {
					runtime.Gosched() // let later tasks overtake this one
				}
				return 10 * k, nil
			},
			func(k, v int) error {
				if v != 10*k {
					t.Fatalf("emit(%d, %d): the value of another task", k, v)
				}
				got = append(got, k)
				return nil
			})
		if err != nil {
			t.Fatal(err)
		}
		want := make([]int, n)
		for k := range want {
			want[k] = k
		}
		if !slices.Equal(got, want) {
			t.Fatalf("emitted %v, want %v", got, want)
		}
		if progress.Load() != int64(n) {
			t.Fatalf("progress called %d times for %d tasks", progress.Load(), n)
		}
	})
}

// A panic in a task is a *PanicError naming the task, with its stack: never a crash of
// the process. Nothing after the panicking task is emitted.
func TestRunRecoversAPanic(t *testing.T) {
	for _, workers := range []int{1, 3} {
		var emitted []int
		err := Run(context.Background(), 6, Options{Workers: workers},
			func(_ context.Context, k int) (int, error) {
				if k == 2 {
					var m map[string]int
					m["x"] = 1 // a nil-map write
				}
				return k, nil
			},
			func(k, _ int) error { emitted = append(emitted, k); return nil })
		var pe *PanicError
		if !errors.As(err, &pe) || pe.Task != 2 || !strings.Contains(string(pe.Stack), "workpool_test.go") {
			t.Fatalf("workers %d: err %v, want the panic of task 2 with its stack", workers, err)
		}
		if slices.Contains(emitted, 2) || len(emitted) > 2 {
			t.Fatalf("workers %d: emitted %v past the panicking task", workers, emitted)
		}
	}
}

// The first task error is returned, cancels the tasks still running (their context
// errors are not errors of their own) and stops the emitting.
func TestRunFirstErrorCancels(t *testing.T) {
	bad := errors.New("task 1 failed")
	var cancelled atomic.Int64
	running := make(chan struct{})
	err := Run(context.Background(), 50, Options{Workers: 2},
		func(ctx context.Context, k int) (int, error) {
			switch {
			case k == 1:
				<-running // fail while task 2 runs
				return 0, bad
			case k >= 2:
				if k == 2 {
					close(running)
				}
				<-ctx.Done() // a long task: only the cancel ends it
				cancelled.Add(1)
				return 0, ctx.Err()
			}
			return k, nil
		},
		func(k, _ int) error {
			if k > 0 {
				t.Errorf("emitted task %d after task 1 failed", k)
			}
			return nil
		})
	if !errors.Is(err, bad) {
		t.Fatalf("err %v, want task 1's", err)
	}
	if cancelled.Load() == 0 {
		t.Fatal("the running task did not see the cancel")
	}
}

// An error of emit stops the run and is returned.
func TestRunEmitError(t *testing.T) {
	full := errors.New("disk full")
	n := 0
	err := Run(context.Background(), 10, Options{Workers: 2},
		func(_ context.Context, k int) (int, error) { return k, nil },
		func(k, _ int) error {
			n++
			if k == 3 {
				return full
			}
			return nil
		})
	if !errors.Is(err, full) || n != 4 {
		t.Fatalf("err %v after %d emits, want disk full after 4", err, n)
	}
}

// When the caller cancels, the finished prefix is emitted and the cancel is returned,
// even when every task happened to finish first.
func TestRunCancelledByCaller(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var emitted []int
	err := Run(ctx, 20, Options{Workers: 2},
		func(ctx context.Context, k int) (int, error) {
			if k >= 5 {
				<-ctx.Done()
				return 0, ctx.Err()
			}
			return k, nil
		},
		func(k, _ int) error {
			emitted = append(emitted, k)
			if k == 4 {
				cancel()
			}
			return nil
		})
	if !errors.Is(err, context.Canceled) || !slices.Equal(emitted, []int{0, 1, 2, 3, 4}) {
		t.Fatalf("err %v, emitted %v", err, emitted)
	}
	ctx, cancel = context.WithCancel(context.Background())
	err = Run(ctx, 3, Options{Workers: 1},
		func(_ context.Context, k int) (int, error) { return k, nil },
		func(k, _ int) error {
			if k == 2 {
				cancel()
			}
			return nil
		})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("all tasks done, then cancelled: err %v, want the cancel", err)
	}
}
