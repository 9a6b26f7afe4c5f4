// Package workpool runs indexed tasks on a pool of goroutines and hands their results
// back in index order: the replications of `coraopt simulate` (sweep.Replicate) and
// the cells of `coraopt sweep run` (sweep.Run) both run through Run, so neither
// command's output depends on the number of cores, and a panic in a task comes back as a *PanicError (exit 3 on the
// command line) instead of ending the process with Go's exit code 2, a bad input's.
package workpool

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
)

// Options drive Run.
type Options struct {
	// Workers is the number of goroutines (at most one per task); 0 or less means
	// GOMAXPROCS.
	Workers int
	// Progress, if set, is called once per task that finished without an error, in
	// completion order, from one goroutine at a time.
	Progress func()
}

// PanicError is a panic recovered in a task: a bug, never an answer about the input.
type PanicError struct {
	Task  int // the index of the task that panicked
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// Run runs do(ctx, k) for k = 0, …, n−1 on a pool of opt.Workers goroutines and calls
// emit(k, v) with each result in increasing k, as soon as every earlier result has been
// emitted, whatever the number of workers.
//
// The first error of a task or of emit (a task's panic as a *PanicError) cancels the
// context the running tasks see, stops starting tasks and is returned; a task that
// returns its context's error after that is not an error of its own. When ctx ends, Run
// stops starting tasks, emits the finished prefix and returns ctx's error, even when
// every task happened to finish; a result is never emitted for a task that failed.
func Run[T any](ctx context.Context, n int, opt Options, do func(ctx context.Context, k int) (T, error), emit func(k int, v T) error) error {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, max(n, 1))
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type result struct {
		k   int
		v   T
		err error
	}
	jobs := make(chan int)
	results := make(chan result, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range jobs {
				if err := ctx.Err(); err != nil {
					var zero T
					results <- result{k, zero, err} // handed out as the run stopped: not started
					continue
				}
				v, err := guarded(ctx, k, do)
				results <- result{k, v, err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for k := range n {
			select {
			case jobs <- k:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	// Hold finished results until every earlier one is out.
	held := map[int]T{}
	next := 0
	var firstErr error
	for r := range results {
		if r.err != nil {
			if firstErr == nil && !errors.Is(r.err, context.Canceled) && !errors.Is(r.err, context.DeadlineExceeded) {
				firstErr = r.err
				cancel()
			}
			continue
		}
		if opt.Progress != nil {
			opt.Progress()
		}
		held[r.k] = r.v
		for firstErr == nil {
			v, ok := held[next]
			if !ok {
				break
			}
			delete(held, next)
			if err := emit(next, v); err != nil {
				firstErr = err
				cancel()
			}
			next++
		}
	}
	if firstErr != nil {
		return firstErr
	}
	if next < n {
		// Only an ended context leaves tasks unemitted without an error of their own.
		if err := ctx.Err(); err != nil {
			return err
		}
		return fmt.Errorf("workpool: %d of %d tasks did not finish", n-next, n)
	}
	// Tasks that finished before the caller cancelled are emitted (nothing computed is
	// lost), and the caller still learns the run was cancelled.
	return parent.Err()
}

// guarded is do(ctx, k) with a panic returned as a *PanicError.
func guarded[T any](ctx context.Context, k int, do func(ctx context.Context, k int) (T, error)) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &PanicError{Task: k, Value: p, Stack: debug.Stack()}
		}
	}()
	return do(ctx, k)
}
