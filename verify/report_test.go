package verify

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestReportStates(t *testing.T) {
	tests := []struct {
		name   string
		checks []Check
		ok     bool
		counts Counts
	}{
		{"empty", nil, true, Counts{}},
		{"passes", []Check{Pass("a", 0, ""), Pass("b", 1e-9, "")}, true, Counts{Checks: 2, Passed: 2}},
		{"a failure", []Check{Pass("a", 0, ""), Fail("b", 2, "broken")}, false, Counts{Checks: 2, Passed: 1, Failed: 1}},
		{"skips do not fail", []Check{Skip("a", "no backend"), Info("b", 3, "measured")}, true, Counts{Checks: 2, Skipped: 1, Info: 1}},
		{"New", []Check{New("a", true, 0, ""), New("b", false, 1, "")}, false, Counts{Checks: 2, Passed: 1, Failed: 1}},
	}
	for _, tc := range tests {
		r := Report{Checks: tc.checks}
		if r.OK() != tc.ok || r.Counts() != tc.counts {
			t.Errorf("%s: OK %t, counts %+v; want %t, %+v", tc.name, r.OK(), r.Counts(), tc.ok, tc.counts)
		}
		if got := len(r.Failures()); got != tc.counts.Failed {
			t.Errorf("%s: %d failures", tc.name, got)
		}
	}
	if s := Skip("x", "why"); s.OK || s.Failed() || s.Status() != "skip" {
		t.Errorf("a skipped check must be neither a pass nor a failure: %+v", s)
	}
}

func TestMergePrefixFind(t *testing.T) {
	a := Report{Checks: []Check{Pass("x", 0, "")}}
	b := Report{Checks: []Check{Fail("y", 1, "")}}
	m := Merge(a, b).Prefixed("tas")
	if len(m.Checks) != 2 || m.Checks[0].Name != "tas/x" || m.Checks[1].Name != "tas/y" {
		t.Fatalf("merged %v", m.Checks)
	}
	if a.Checks[0].Name != "x" {
		t.Error("Prefixed changed its receiver")
	}
	if c, ok := m.Find("tas/y"); !ok || c.OK {
		t.Errorf("Find: %v %t", c, ok)
	}
	if _, ok := m.Find("y"); ok {
		t.Error("Find matched an unprefixed name")
	}
}

// TestReportJSON pins the JSON shape coraopt verify -o json prints.
func TestReportJSON(t *testing.T) {
	r := Report{Checks: []Check{
		Pass("a", 0, "held"), Fail("b", math.Inf(1), "NaN somewhere"), Skip("c", "no MIP backend"), Info("d", 2, "measured"),
	}}
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var got struct {
		OK     bool           `json:"ok"`
		Counts map[string]int `json:"counts"`
		Checks []map[string]any
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if got.OK || got.Counts["failed"] != 1 || got.Counts["skipped"] != 1 || len(got.Checks) != 4 {
		t.Fatalf("%s", buf.String())
	}
	for i, want := range []struct {
		name, status string
		ok           bool
		viol         any
	}{{"a", "pass", true, 0.0}, {"b", "fail", false, nil}, {"c", "skip", false, nil}, {"d", "info", true, 2.0}} {
		c := got.Checks[i]
		for _, k := range []string{"name", "ok", "max_violation", "detail", "status"} {
			if _, ok := c[k]; !ok {
				t.Errorf("check %d has no %q: %v", i, k, c)
			}
		}
		if c["name"] != want.name || c["status"] != want.status || c["ok"] != want.ok {
			t.Errorf("check %d = %v", i, c)
		}
		if want.name != "c" && c["max_violation"] != want.viol {
			t.Errorf("check %s: max_violation %v, want %v (an infinite one is null)", want.name, c["max_violation"], want.viol)
		}
	}
	if got.Checks[2]["reason"] != "no MIP backend" {
		t.Errorf("skip reason %v", got.Checks[2])
	}
	m, err := json.Marshal(r)
	if err != nil || !bytes.Equal(append(m, '\n'), compact(t, buf.Bytes())) {
		t.Errorf("MarshalJSON differs from WriteJSON: %s", m)
	}
}

func compact(t *testing.T, b []byte) []byte {
	var c bytes.Buffer
	if err := json.Compact(&c, b); err != nil {
		t.Fatal(err)
	}
	return append(c.Bytes(), '\n')
}

func TestWriteTable(t *testing.T) {
	r := Report{Checks: []Check{Pass("tas/onion/capacity", 0, "fine"), Fail("tas/onion-vs-mip", 0.25, "first difference\n at 2"),
		Skip("tas/backends", "no MIP backend")}}
	var buf bytes.Buffer
	if err := r.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"CHECK", "RESULT", "MAX VIOLATION", "tas/onion/capacity", "FAIL", "0.25", "first difference at 2",
		"skipped", "no MIP backend", "FAILED: 3 checks, 1 passed, 1 failed, 1 skipped, 0 informational"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if got := Merge().Summary(); got != "ok: 0 checks, 0 passed, 0 failed, 0 skipped, 0 informational" {
		t.Errorf("Summary of an empty report: %q", got)
	}
}
