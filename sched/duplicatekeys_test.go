package sched

import (
	"errors"
	"slices"
	"testing"
)

// TestDuplicateKeys: every repeated key at any depth, at its path, in document order;
// values under a repeated key are not searched again; a syntax error names its line.
func TestDuplicateKeys(t *testing.T) {
	tests := []struct {
		doc  string
		want []string
	}{
		{`{"a": 1, "b": [1, {"c": 2}]}`, nil},
		{`{"a": 1, "a": 2}`, []string{"a: duplicate key"}},
		{`{"x": [{"k": 1}, {"k": 1, "k": 2}], "y": {"gpu memory": 1, "gpu memory": 2}}`,
			[]string{"x[1].k: duplicate key", `y["gpu memory"]: duplicate key`}},
		{`{"a": {"b": 1, "b": 2}, "a": {"c": 1, "c": 2}}`, []string{"a: duplicate key"}},
		{`[{"": 1, "": 2}]`, []string{`[0][""]: duplicate key`}},
	}
	for _, tc := range tests {
		ps, err := DuplicateKeys([]byte(tc.doc))
		if err != nil {
			t.Errorf("%s: %v", tc.doc, err)
			continue
		}
		var got []string
		for _, p := range ps {
			got = append(got, p.String())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.doc, got, tc.want)
		}
	}
	_, err := DuplicateKeys([]byte("{\n\"a\": }"))
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Problems) != 1 || ve.Problems[0].Msg[:23] != "syntax error at line 2," {
		t.Errorf("syntax error: %v", err)
	}
}

func TestPathKey(t *testing.T) {
	for _, tc := range [][3]string{
		{"", "jobs", "jobs"}, {"jobs[0]", "id", "jobs[0].id"}, {"d", "gpu memory", `d["gpu memory"]`}, {"", "", `[""]`},
	} {
		if got := PathKey(tc[0], tc[1]); got != tc[2] {
			t.Errorf("PathKey(%q, %q) = %q, want %q", tc[0], tc[1], got, tc[2])
		}
	}
}
