package all

import (
	"slices"
	"testing"
)

// Every name builds a policy of that name, and the Hadoop-1 policies are registered.
func TestNames(t *testing.T) {
	names := Names()
	for _, want := range []string{"fifo", "woha-hlf", "woha-lpf", "woha-mpf", "oozie-fifo", "oozie-fair", "oozie-edf", "rtmr", "rtmr-nofeedback", "dc", "rtmr-fifo"} {
		if !slices.Contains(names, want) {
			t.Errorf("%q not registered (have %v)", want, names)
		}
	}
	for _, n := range names {
		p, err := New(n)
		if err != nil || p.Name() != n {
			t.Errorf("New(%q): %v, %v", n, p, err)
		}
	}
	if _, err := New("nope"); err == nil {
		t.Error("an unknown name was accepted")
	}
}
