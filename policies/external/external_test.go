package external

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
	"github.com/coraopt/coraopt/workload/hadoop1"
)

// families are small workloads of every generated family (the rtmr ones cut to their
// first 25 jobs), on which an external FIFO and EDF must reproduce the built-ins.
func families(t testing.TB) map[string]*workload.Workload {
	t.Helper()
	out := map[string]*workload.Workload{}
	must := func(name string, w *workload.Workload, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = w
	}
	w, err := workload.CORAWorkload(20, 3)
	must("cora", w, err)
	w, err = workload.RUSHWorkload(20, 3, 1.5)
	must("rush", w, err)
	w, err = workload.RDSWorkload(20, 3)
	must("rds", w, err)
	w, err = hadoop1.WOHAFamily("woha", 2, 3)
	must("woha", w, err)
	w, err = hadoop1.WOHAFamily("woha-fig2", 0, 3)
	must("woha-fig2", w, err)
	for _, f := range []string{"rtmr-1", "rtmr-2"} {
		w, err = hadoop1.RTMRFamily(f, 3, "beyond")
		if err == nil && len(w.Jobs) > 25 {
			w.Jobs = w.Jobs[:25]
			err = w.Validate()
		}
		must(f, w, err)
	}
	return out
}

// canonical is m as `coraopt simulate -o json` prints it, without timing and with the
// name set to name.
func canonical(t testing.TB, m *sim.Metrics, name string) []byte {
	t.Helper()
	c := *m
	c.Timing, c.Name = nil, name
	data, err := json.Marshal(&c)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The Go client's FIFO and EDF, run as a program, give the bytes of the built-in fifo
// and edf on every family.
func TestGoClientReproducesBuiltins(t *testing.T) {
	for fam, w := range families(t) {
		for _, mode := range []string{"fifo", "edf", "fifo-standing", "edf-standing", "edf-arrivals"} {
			name, _, _ := strings.Cut(mode, "-")
			t.Run(fam+"/"+mode, func(t *testing.T) {
				t.Parallel() // each run mostly waits for the other process
				builtin, _ := all.New(name)
				want, err := sim.Measure(context.Background(), w, builtin, 7, true)
				if err != nil {
					t.Fatal(err)
				}
				var rounds int
				err = With(context.Background(), self(t, "go-"+name, mode), w, Options{}, func(p policies.Policy) error {
					got, err := sim.Measure(context.Background(), w, p, 7, true)
					if err != nil {
						return err
					}
					if g, w := canonical(t, got, name), canonical(t, want, name); !bytes.Equal(g, w) {
						t.Errorf("external %s differs from the built-in:\n got %s\nwant %s", mode, g, w)
					}
					if got.Name != "go-"+name {
						t.Errorf("name %q, want go-%s", got.Name, name)
					}
					rounds = p.(interface{ session() *Session }).session().Rounds()
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				// A standing order is asked for once; re-sent at arrivals, at most once
				// per job; per round, at more instants than jobs on every family.
				switch {
				case strings.HasSuffix(mode, "-standing") && rounds != 1:
					t.Errorf("%d rounds, want 1", rounds)
				case mode == "edf-arrivals" && (rounds < 1 || rounds > len(w.Jobs)):
					t.Errorf("%d rounds, want 1 to %d (one per arrival at most)", rounds, len(w.Jobs))
				case !strings.Contains(mode, "-") && rounds <= len(w.Jobs):
					t.Errorf("%d rounds, want more than %d", rounds, len(w.Jobs))
				}
			})
		}
	}
}

// tiny is two workers of one slot and three jobs of four tasks: round 1 starts two
// tasks, round 2 comes when the first finishes.
func tiny(t testing.TB) *workload.Workload {
	t.Helper()
	w := &workload.Workload{Name: "tiny", TimeUnit: 1, Cluster: workload.Cluster{
		Pools:   []workload.Pool{{Name: "containers", Slots: 2}},
		Workers: []workload.Worker{{Count: 2, Slots: map[string]int{"containers": 1}, Speed: 1}}}}
	for j := range 3 {
		w.Jobs = append(w.Jobs, workload.Job{ID: string(rune('a' + j)), Arrival: 0, Priority: 1, Utility: sched.Linear{Budget: 100, Slope: 1},
			Stages: []workload.Stage{{Pool: "containers", Tasks: 4, Runtime: &workload.Runtime{Type: "fixed", Value: 10 + float64(j)}}}})
	}
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	return w
}

// Every misbehaviour of issue 30's list ends the run with an *Error naming where
// (round and simulated time, or the handshake) and what (the field or the program's
// fate), and the program is reaped.
func TestMisbehaviour(t *testing.T) {
	w := tiny(t)
	for _, c := range []struct {
		mode    string
		timeout time.Duration
		want    []string // substrings of the error
	}{
		{"malformed", 0, []string{"round 2 (t=10 s)", "not JSON"}},
		{"unknown-job", 0, []string{"round 2 (t=10 s)", "assign[0].job", "unknown job 99"}},
		{"twice", 0, []string{"round 2 (t=10 s)", "assign[1].worker", "a slot given twice"}},
		{"more-than-free", 0, []string{"round 2 (t=10 s)", "assign[1].count", "more slots than free"}},
		{"wrong-round", 0, []string{"round 2 (t=10 s)", "round: answers round 3"}},
		{"wrong-type", 0, []string{"round 2 (t=10 s)", `type: got "bye", want "decision"`}},
		{"error", 0, []string{"round 2 (t=10 s)", "out of ideas"}},
		{"crash", 0, []string{"round 2 (t=10 s)", "exited (status 3)"}},
		{"early-exit", 0, []string{"handshake", "exited (status 0)"}},
		{"version", 0, []string{"handshake", "protocol: the program speaks protocol 3; this engine speaks 1 to 2"}},
		{"wake-v1", 0, []string{"handshake", "wake: needs protocol 2"}},
		{"order-v1", 0, []string{"round 2 (t=10 s)", "order: needs protocol 2"}},
		{"order-twice", 0, []string{"round 2 (t=10 s)", "order[2]: job 2 (c) is listed twice"}},
		{"order-unknown", 0, []string{"round 2 (t=10 s)", "order[1]: unknown job 3"}},
		{"silence", 300 * time.Millisecond, []string{"round 2 (t=10 s)", "no answer within the timeout of 300ms"}},
		{"close-stdout", 0, []string{"round 2 (t=10 s)", "closed its standard output"}},
		{"bad-admission", 0, []string{"admit job 0 (t=0 s)", "job: admits job 1, but job 0 is the one asking"}},
		{"admission-garbage", 0, []string{"admit job 0 (t=0 s)", "admit: must be true or false"}},
		{"no-bye", 0, []string{"end (t=", "exited (status 0)"}},
	} {
		t.Run(c.mode, func(t *testing.T) {
			cmd := self(t, "bad", c.mode)
			cmd.Timeout = c.timeout
			var stderr bytes.Buffer
			s, err := Start(context.Background(), cmd, w, Options{Stderr: &SyncWriter{W: &stderr}})
			if err == nil {
				_, err = sim.Measure(context.Background(), w, s.Policy(), 1, false)
				if cerr := s.Close(); err == nil {
					err = cerr
				}
				if s.proc.ProcessState == nil {
					t.Error("the program was not reaped")
				} else if err := syscall.Kill(s.proc.Process.Pid, 0); !errors.Is(err, syscall.ESRCH) {
					t.Errorf("the program still exists: kill 0 gives %v", err)
				}
			}
			t.Log(err)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T), want an *external.Error", err, err)
			}
			for _, sub := range c.want {
				if !strings.Contains(err.Error(), sub) {
					t.Errorf("error %q lacks %q", err, sub)
				}
			}
			if !strings.Contains(stderr.String(), "[bad] misbehaving: "+c.mode+"\n") {
				t.Errorf("the program's stderr was not passed on prefixed: %q", stderr.String())
			}
		})
	}
}

// A decision of targets steers the container-assignment unit: with targets 1, 3, 1 and
// two free slots at time 0, job 1 (gap 3, then 2) takes both; later slots go by gap.
func TestTargets(t *testing.T) {
	w := tiny(t)
	var res *sim.Result
	err := With(context.Background(), self(t, "targets", "targets"), w, Options{}, func(p policies.Policy) error {
		var err error
		res, err = sim.Run(context.Background(), w, p, sim.Options{Seed: 1, Record: true})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var first []int
	for _, pl := range res.Placements {
		if pl.Start == 0 {
			first = append(first, pl.Job)
		}
	}
	if len(first) != 2 || first[0] != 1 || first[1] != 1 {
		t.Errorf("jobs started at 0: %v, want [1 1]", first)
	}
	for j := range res.Jobs {
		if math.IsNaN(res.Jobs[j].Completion) {
			t.Errorf("job %d never completed", j)
		}
	}
}

// A program that refuses the workload gives an UnsupportedError, as a built-in
// Refuser does (exit 2 in the CLI).
func TestRefuse(t *testing.T) {
	w := tiny(t)
	_, err := Measure(context.Background(), self(t, "picky", "refuse"), w, 1, false, Options{})
	var ue *sim.UnsupportedError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "no deadlines here") {
		t.Fatalf("error %v, want an UnsupportedError with the reason", err)
	}
}

// Cancelling the run's context stops a wait for a silent program: the run ends with
// the context's error, not the program's.
func TestCancelSilentProgram(t *testing.T) {
	w := tiny(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	_, err := Measure(ctx, self(t, "slow", "silence"), w, 1, false, Options{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

var _ policies.Policy = (*policy)(nil)
