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

func TestRepeated(t *testing.T) {
	for _, c := range []struct {
		labels         []string
		earlier, later int
	}{
		{nil, -1, -1},
		{[]string{"fifo", "edf", "rrh"}, -1, -1},
		{[]string{"fifo", "edf", "fifo", "edf"}, 0, 2},
		{[]string{"a", "b", "b", "a"}, 1, 2},
	} {
		if e, l := Repeated(c.labels); e != c.earlier || l != c.later {
			t.Errorf("Repeated(%q) = %d, %d; want %d, %d", c.labels, e, l, c.earlier, c.later)
		}
	}
}
