package all_test

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/all"
)

// TestHooksTable checks the table of registered policies and their hooks in the
// policies package doc against what each policy implements, so the doc cannot drift.
func TestHooksTable(t *testing.T) {
	src, err := os.ReadFile("../doc.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := map[string]string{}
	in := false
	for _, line := range strings.Split(string(src), "\n") {
		f := strings.Fields(strings.TrimPrefix(line, "//"))
		switch {
		case len(f) == 2 && f[0] == "policy" && f[1] == "hooks":
			in = true
		case in && len(f) == 0:
			in = false
		case in:
			doc[f[0]] = strings.Join(f[1:], " ")
		}
	}
	code := map[string]string{}
	for _, name := range all.Names() {
		p, err := all.New(name)
		if err != nil {
			t.Fatal(err)
		}
		code[name] = strings.Join(policies.HooksOf(p).Names(), " ")
		if code[name] == "" {
			code[name] = "-"
		}
	}
	if diff := cmp.Diff(doc, code); diff != "" {
		t.Fatalf("policies/doc.go's hook table (-) differs from the code (+):\n%s", diff)
	}
}
