package protocol

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// engineLines are messages as the engine writes them (policies/external's state.go).
var engineLines = []string{
	`{"type":"round","round":1,"time":1,"events":[{"kind":"arrival","time":0,"job":0},{"kind":"arrival","time":0,"job":1}],"runnable":[{"job":0,"tasks":[2,0]},{"job":1,"tasks":[1,0]}],"free":[3,2]}`,
	`{"type":"round","round":2,"time":5.25,"events":[{"kind":"start","time":1,"job":0,"stage":0,"task":0,"worker":0,"pool":0},{"kind":"task_finish","time":5.25,"job":0,"stage":0,"task":0,"worker":0,"pool":0,"start":1},{"kind":"job_finish","time":5.25,"job":1},{"kind":"capacity","time":5.25,"pool":1,"slots":0},{"kind":"tick","time":5.25},{"kind":"reject","time":5.25,"job":3}],"runnable":[{"job":1,"tasks":[0,0]}],"free":[2,2]}`,
	`{"type":"admit","time":0.1,"job":4,"events":[]}`,
	`{"type":"end","time":1e+21,"events":[]}`,
}

// The lines the engine and the clients write take the fast paths (no reflection),
// and read the same as encoding/json reads them.
func TestFastPaths(t *testing.T) {
	var m Message
	for _, l := range engineLines {
		if !m.fastDecode([]byte(l)) {
			t.Errorf("%s: not read by the fast path", l)
			continue
		}
		var want Message
		if err := json.Unmarshal([]byte(l), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(normal(m), normal(want)) {
			t.Errorf("%s:\n fast %+v\n json %+v", l, m, want)
		}
	}
	w := 3
	for _, d := range []*Decision{
		{Round: 4, Assign: []Assignment{{Job: 1, Pool: 0, Count: 2}, {Job: 0, Pool: 1, Count: 1, Worker: &w}}},
		{Round: 5, Targets: []Target{{Job: 2, Pool: 0, Target: 1.5}}, Order: []int{2, 0, 1}},
		{Round: 6, Order: []int{}},
	} {
		line, err := AppendReply(nil, d)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := fastDecision(line[:len(line)-1])
		if !ok || !reflect.DeepEqual(got, d) {
			t.Errorf("%s: fast path reads %+v (%v), want %+v", line, got, ok, d)
		}
	}
	// Once its slices have grown, a Message reads a round without allocating.
	line := []byte(engineLines[1])
	if n := testing.AllocsPerRun(100, func() { m.Decode(line) }); n != 0 {
		t.Errorf("Decode allocates %v times per round", n)
	}
}

// normal makes empty slices nil (encoding/json makes [] an empty slice, the fast path
// reuses its own).
func normal(m Message) Message {
	if len(m.Events) == 0 {
		m.Events = nil
	}
	if len(m.Free) == 0 {
		m.Free = nil
	}
	if len(m.Runnable) == 0 {
		m.Runnable = nil
	}
	rs := make([]Runnable, len(m.Runnable))
	for i, r := range m.Runnable {
		if len(r.Tasks) == 0 {
			r.Tasks = nil
		}
		rs[i] = r
	}
	if m.Runnable != nil {
		m.Runnable = rs
	}
	return m
}

// FuzzDecodeMessage: what the fast path of Message.Decode reads, encoding/json reads
// the same; whatever the line, Decode does not panic.
func FuzzDecodeMessage(f *testing.F) {
	for _, l := range engineLines {
		f.Add([]byte(l))
	}
	f.Add([]byte(`{"type":"round","round":-0,"time":-0.0}`))
	f.Add([]byte(`{"type":"round", "events":[{"kind":"start","kind":"tick"}]}`))
	f.Add([]byte(`{"type":"round","round":1e2}`))
	f.Add([]byte(strings.Repeat("[", 50)))
	f.Fuzz(func(t *testing.T, line []byte) {
		var m Message
		fast := m.fastDecode(line)
		var want Message
		err := json.Unmarshal(line, &want)
		if fast && (err != nil || !reflect.DeepEqual(normal(m), normal(want))) {
			t.Fatalf("%q: fast path %+v, encoding/json %+v (%v)", line, m, want, err)
		}
		var again Message
		_ = again.Decode(line)
	})
}
