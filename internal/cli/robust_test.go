package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const rsData = "../../testdata/rs"

func rsRun(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = Main(context.Background(), args, Streams{In: strings.NewReader(""), Out: &out, Err: &errOut})
	return code, out.String(), errOut.String()
}

var rsSmall = []string{"rs-coverage", "--reps", "200", "--k", "5,25,35", "--delta", "0,0.7,2"}

func TestRSCoverageTableGolden(t *testing.T) {
	code, out, errOut := rsRun(append(rsSmall, "-o", "table")...)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden := filepath.Join(rsData, "coverage-small.table")
	if *update {
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("table differs from %s (rerun with -update if intended):\n%s", golden, out)
	}
}

func TestRSCoverageJSON(t *testing.T) {
	code, out, errOut := rsRun(append(rsSmall, "-o", "json", "--samples", "independent")...)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Theta   float64 `json:"theta"`
		Samples string  `json:"samples"`
		Ks      []int   `json:"ks"`
		Cells   [][]struct {
			K        int     `json:"k"`
			Delta    float64 `json:"delta"`
			Coverage float64 `json:"coverage"`
			Model    float64 `json:"model"`
		} `json:"cells"`
		Claims []struct {
			Name    string `json:"name"`
			Checked bool   `json:"checked"`
		} `json:"claims"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.Theta != 0.9 || got.Samples != "independent" || len(got.Cells) != 3 || len(got.Cells[2]) != 3 || got.Cells[1][1].K != 25 || got.Cells[1][1].Delta != 0.7 {
		t.Fatalf("unexpected shape: %+v", got)
	}
	for _, row := range got.Cells {
		for j := 1; j < len(row); j++ {
			if row[j].Coverage < row[j-1].Coverage {
				t.Errorf("k=%d: coverage decreases along delta: %+v", row[j].K, row)
			}
		}
	}
	if len(got.Claims) != 2 || !got.Claims[0].Checked || !got.Claims[1].Checked {
		t.Errorf("claims %+v", got.Claims)
	}
}

func TestRSCoverageMetrics(t *testing.T) {
	for _, m := range rsCoverageMetrics {
		code, out, errOut := rsRun("rs-coverage", "--reps", "20", "--k", "10", "--delta", "0,1", "--metric", m, "-o", "table")
		if code != ExitOK || !strings.Contains(out, metricTitle(m)) {
			t.Errorf("--metric %s: exit %d, %s\n%s", m, code, errOut, out)
		}
	}
	code, out, _ := rsRun("rs-coverage", "--reps", "20", "--k", "10", "--delta", "0", "--bins", "256", "-o", "table")
	if code != ExitOK || !strings.Contains(out, "at most 256 bins") {
		t.Errorf("--bins: exit %d\n%s", code, out)
	}
}

func TestRSCoverageUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--samples", "sometimes"},
		{"--metric", "median"},
		{"--theta", "1"},
		{"--k", "1"},
		{"--delta", "-0.5"},
		{"--reps", "0"},
		{"--k", "x"},
		{"extra-arg"},
	} {
		code, _, errOut := rsRun(append([]string{"rs-coverage", "--reps", "5"}, args...)...)
		if code != ExitBadUsage || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with a message", args, code, errOut)
		}
	}
}

func TestRSDemandsTableGolden(t *testing.T) {
	code, out, errOut := rsRun("rs-demands", "../../testdata/instances/runtime-robust.json", "--check", "-o", "table")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden := filepath.Join(rsData, "demands-runtime-robust.table")
	if *update {
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("table differs from %s (rerun with -update if intended):\n%s", golden, out)
	}
}

func TestRSDemandsJSON(t *testing.T) {
	data, err := os.ReadFile("../../testdata/instances/runtime-robust.json")
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := Main(context.Background(), []string{"rs-demands", "-", "--theta", "0.95", "--delta", "1", "--check", "-o", "json"},
		Streams{In: bytes.NewReader(data), Out: &out, Err: &errOut})
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var got struct {
		Theta, Delta float64
		Bins         int
		OK           *bool
		Checks       []struct{ Name string }
		Jobs         []struct {
			ID                string `json:"id"`
			Eta               int64  `json:"eta"`
			ReferenceQuantile *int64 `json:"reference_quantile"`
			Nominal           int    `json:"nominal"`
		}
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got.Theta != 0.95 || got.Delta != 1 || got.Bins != 256 || got.OK == nil || !*got.OK || len(got.Checks) != 36 || len(got.Jobs) != 4 {
		t.Fatalf("unexpected output: %s", out.String())
	}
	for _, j := range got.Jobs {
		if j.ReferenceQuantile == nil || j.Eta < *j.ReferenceQuantile {
			t.Errorf("job %s: eta %d below its reference quantile %v", j.ID, j.Eta, j.ReferenceQuantile)
		}
	}
	// Jobs without a runtime keep their demand and have no reference quantile.
	code, outs, errs := rsRun("rs-demands", "../../testdata/quickstart.json", "--theta", "0.9", "--delta", "0", "-o", "json")
	if code != ExitOK || !strings.Contains(outs, `"eta": 30`) || strings.Contains(outs, "reference_quantile") {
		t.Errorf("quickstart: exit %d %s\n%s", code, errs, outs)
	}
}

func TestRSDemandsErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"../../testdata/quickstart.json"}, "robust"},
		{[]string{"../../testdata/instances/two-resources.json", "--theta", "0.9", "--delta", "1"}, "2 resources"},
		{[]string{"../../testdata/quickstart.json", "--theta", "0.9"}, "--delta"},
		{[]string{"../../testdata/instances/runtime-robust.json", "--theta", "1.5"}, "theta"},
		{[]string{"../../testdata/instances/runtime-robust.json", "--delta", "-1"}, "delta"},
		{[]string{"../../testdata/instances/runtime-robust.json", "--bins", "1"}, "bins"},
		{[]string{"does-not-exist.json"}, "does-not-exist"},
		{[]string{"../../testdata/instances/bad/runtime-pmf.json"}, "runtime"},
		{[]string{}, "arg"},
	} {
		code, _, errOut := rsRun(append([]string{"rs-demands"}, tc.args...)...)
		if code != ExitBadUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 mentioning %q", tc.args, code, errOut, tc.want)
		}
	}
}
