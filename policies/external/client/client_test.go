package client

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// hello is one line once its newlines are removed (they are there for reading).
var hello = strings.ReplaceAll(`{"type":"hello","protocol":1,"policy":"t","params":{},"workload":{"name":"w","time_unit":1,
"pools":[{"name":"map","slots":4},{"name":"reduce","slots":2}],"workers":[{"slots":[4,2],"speed":1}],
"jobs":[{"id":"a","arrival":0,"rank":0,"priority":1,"deadline":null,"target":50,"utility":{"type":"constant","value":1},"stages":[{"pool":0,"tasks":2,"start_after":0,"runtime":null}]},
{"id":"b","arrival":0,"rank":1,"priority":1,"deadline":10,"target":10,"utility":{"type":"constant","value":1},"stages":[{"pool":0,"tasks":1,"start_after":0,"runtime":null}]},
{"id":"c","arrival":1,"rank":2,"priority":1,"deadline":null,"target":null,"utility":{"type":"constant","value":1},"stages":[{"pool":0,"tasks":3,"start_after":0,"runtime":null},{"pool":1,"tasks":1,"start_after":3,"runtime":null}]}]}}`, "\n", "") + "\n"

// The session a client sees: arrivals, runnable counts and free slots; FIFO gives the
// map slots in arrival order, EDF by target (c has none: last); a finished job leaves
// the active list; end is answered with bye.
func TestServeFIFOAndEDF(t *testing.T) {
	msgs := hello + strings.Join([]string{
		`{"type":"round","round":1,"time":1,"events":[{"kind":"arrival","time":0,"job":0},{"kind":"arrival","time":0,"job":1},{"kind":"arrival","time":1,"job":2}],"runnable":[{"job":0,"tasks":[2,0]},{"job":1,"tasks":[1,0]},{"job":2,"tasks":[3,0]}],"free":[3,2]}`,
		`{"type":"round","round":2,"time":5,"events":[{"kind":"start","time":1,"job":0,"stage":0,"task":0,"worker":0,"pool":0},{"kind":"task_finish","time":5,"job":0,"stage":0,"task":0,"worker":0,"pool":0,"start":1},{"kind":"job_finish","time":5,"job":1}],"runnable":[{"job":1,"tasks":[0,0]}],"free":[2,2]}`,
		`{"type":"end","time":9,"events":[]}`,
	}, "\n") + "\n"
	for _, c := range []struct {
		name string
		p    Policy
		want []string
	}{
		{"fifo", FIFO{}, []string{
			`{"type":"decision","round":1,"assign":[{"job":0,"pool":0,"count":2},{"job":1,"pool":0,"count":1}]}`,
			`{"type":"decision","round":2,"assign":[{"job":0,"pool":0,"count":2}]}`,
		}},
		{"edf", &EDF{}, []string{
			`{"type":"decision","round":1,"assign":[{"job":1,"pool":0,"count":1},{"job":0,"pool":0,"count":2}]}`,
			`{"type":"decision","round":2,"assign":[{"job":0,"pool":0,"count":2}]}`,
		}},
	} {
		var out bytes.Buffer
		if err := Serve(strings.NewReader(msgs), &out, c.p, Options{}); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		want := append(append([]string{`{"type":"ready","protocol":2}`}, c.want...), `{"type":"bye"}`)
		if strings.Join(lines, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\n got %s\nwant %s", c.name, strings.Join(lines, "\n"), strings.Join(want, "\n"))
		}
	}
}

type probe struct {
	FIFO
	state *State
}

func (p *probe) OnRound(s *State) Decision { p.state = s; return p.FIFO.OnRound(s) }

// State after the two rounds: b finished and left Active, a's finished task carries
// its observed runtime, queries answer from the round's counts.
func TestState(t *testing.T) {
	msgs := hello + `{"type":"round","round":1,"time":1,"events":[{"kind":"arrival","time":0,"job":0},{"kind":"arrival","time":0,"job":1},{"kind":"arrival","time":1,"job":2}],"runnable":[{"job":0,"tasks":[2,0]},{"job":1,"tasks":[1,0]},{"job":2,"tasks":[3,0]}],"free":[3,2]}
{"type":"round","round":2,"time":5,"events":[{"kind":"start","time":1,"job":0,"stage":0,"task":0,"worker":0,"pool":0},{"kind":"task_finish","time":5,"job":0,"stage":0,"task":0,"worker":0,"pool":0,"start":1},{"kind":"job_finish","time":5,"job":1}],"runnable":[{"job":1,"tasks":[0,0]}],"free":[2,2]}
`
	p := &probe{}
	err := Serve(strings.NewReader(msgs), &bytes.Buffer{}, p, Options{})
	if err == nil || !strings.Contains(err.Error(), "closed the protocol before end") {
		t.Fatalf("Serve = %v, want the missing end reported", err)
	}
	s := p.state
	if got := s.Active(); len(got) != 2 || got[0] != 0 || got[1] != 2 {
		t.Errorf("Active = %v, want [0 2]", got)
	}
	if got := s.Runnable(0); len(got) != 2 || s.RunnableTasks(2, 0) != 3 || s.FreeSlots(1) != 2 {
		t.Errorf("Runnable(0) = %v, RunnableTasks(2, 0) = %d", got, s.RunnableTasks(2, 0))
	}
	if f := s.Finished[0]; len(f) != 1 || f[0].Finish-f[0].Start != 4 || len(s.Running[0]) != 0 {
		t.Errorf("Finished[0] = %+v, Running[0] = %+v", f, s.Running[0])
	}
	if s.TimeToDeadline(0) != 45 || !(s.Target(2) > 1e300) {
		t.Errorf("TimeToDeadline(0) = %g, Target(2) = %g", s.TimeToDeadline(0), s.Target(2))
	}
}

type picky struct{ FIFO }

func (picky) OnHello(*State) error { return errors.New("no reduce pools, please") }

// A Helloer's error is a refuse with its reason.
func TestServeRefuse(t *testing.T) {
	var out bytes.Buffer
	if err := Serve(strings.NewReader(hello), &out, picky{}, Options{}); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.String()); got != `{"type":"refuse","reason":"no reduce pools, please"}` {
		t.Errorf("got %s", got)
	}
}
