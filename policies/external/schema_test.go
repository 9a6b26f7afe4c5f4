package external

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/coraopt/coraopt/policies/external/protocol"
	"github.com/coraopt/coraopt/workload"
)

// Every line the engine sends and the Go client answers, over runs that use every
// message and event kind (admissions with rejections, ticks, targets, capacity steps,
// two pools), is valid under the published schema of its type.
func TestMessagesMatchSchemas(t *testing.T) {
	fams := families(t)
	capacity, err := workload.RDSWorkload(12, 5) // a capacity trace: capacity events
	if err != nil {
		t.Fatal(err)
	}
	seenTypes, seenKinds := map[string]bool{}, map[string]bool{}
	for name, w := range map[string]*workload.Workload{"tiny": tiny(t), "woha-fig2": fams["woha-fig2"], "rds": capacity} {
		for _, mode := range []string{"fifo", "admit-tick", "edf-arrivals"} {
			log := filepath.Join(t.TempDir(), "log.jsonl")
			c := self(t, mode, mode)
			c.Env = append(c.Env, logEnv+"="+log)
			if _, err := Measure(context.Background(), c, w, 1, false, Options{}); err != nil {
				t.Fatalf("%s %s: %v", name, mode, err)
			}
			f, err := os.Open(log)
			if err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 64<<20)
			n := 0
			for sc.Scan() {
				n++
				if err := protocol.Validate(sc.Bytes()); err != nil {
					t.Fatalf("%s %s: line %d %s: %v", name, mode, n, sc.Bytes(), err)
				}
				var m struct {
					Type   string
					Events []struct{ Kind string }
				}
				json.Unmarshal(sc.Bytes(), &m)
				seenTypes[m.Type] = true
				for _, e := range m.Events {
					seenKinds[e.Kind] = true
				}
			}
			f.Close()
			if n < 4 {
				t.Errorf("%s %s: only %d lines logged", name, mode, n)
			}
		}
	}
	for _, typ := range []string{"hello", "ready", "admit", "admission", "round", "decision", "end", "bye"} {
		if !seenTypes[typ] {
			t.Errorf("no %s message in the runs", typ)
		}
	}
	for _, k := range []string{"start", "capacity", "task_finish", "job_finish", "arrival", "reject", "tick"} {
		if !seenKinds[k] {
			t.Errorf("no %s event in the runs", k)
		}
	}
	// Every schema compiles and each message type has one.
	for _, m := range protocol.Messages {
		if _, err := protocol.Schema(m); err != nil {
			t.Error(err)
		}
	}
	if !slices.Contains(protocol.Messages, protocol.TypeDecision) {
		t.Error("Messages lacks decision")
	}
}
