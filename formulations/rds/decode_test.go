package rds

import (
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/coraopt/coraopt/sched"
)

var update = flag.Bool("update", false, "rewrite the golden .want files of testdata/rds/bad")

const stateData = "../../testdata/rds"

// TestDecodeStateFiles decodes every state file of testdata/rds and checks what each
// file says, including the defaults it leaves out.
func TestDecodeStateFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(stateData, "*.json"))
	if len(files) < 4 {
		t.Fatalf("%d state files in %s, want at least 4", len(files), stateData)
	}
	for _, path := range files {
		f, err := decodeFile(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
		}
		if f != nil && len(f.State.Jobs) == 0 {
			t.Errorf("%s: no jobs", path)
		}
	}
	f, err := decodeFile(filepath.Join(stateData, "table1-t10-eq3.json"))
	if err != nil {
		t.Fatal(err)
	}
	j2 := f.State.Jobs[1]
	if j2.Hard != 30 || j2.Priority != 1 || j2.Progress != 0 || j2.Phase != PhaseMap ||
		!math.IsInf(j2.MaxMap, 1) || !math.IsInf(j2.MaxReduce, 1) || j2.Prev != (Alloc{}) {
		t.Errorf("J2 defaults: %+v", j2)
	}
	if p := f.Params; p.PredictionHorizon != 3 || p.ControlHorizon != 3 || p.AROrder != 3 ||
		!cmp.Equal(p.MapPenalty, paperMapPenalty) || !cmp.Equal(p.ReducePenalty, paperReducePenalty) || p.Deadlines != DeadlinesOff {
		t.Errorf("params: %+v", p)
	}
	if _, src := f.Predictor(); src != "given" {
		t.Errorf("forecast source %q, want given", src)
	}
	ar, err := decodeFile(filepath.Join(stateData, "mapreduce-ar.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, src := ar.Predictor(); src != "ar(3)" {
		t.Errorf("forecast source %q, want ar(3)", src)
	}
	if p := ar.Params; p.ControlHorizon != 2 || !cmp.Equal(p.MapPenalty, []float64{0.01}) {
		t.Errorf("mapreduce-ar params: %+v", p)
	}
	green, err := decodeFile(filepath.Join(stateData, "green.json"))
	if err != nil {
		t.Fatal(err)
	}
	pred, src := green.Predictor()
	if src != "green" {
		t.Fatalf("forecast source %q, want green", src)
	}
	// 10 + 2·(3·0.8 + 0.004·6³ − 0.1) = 10 + 2·3.164 = 16.328 for the first interval.
	fc, err := pred.Forecast(green.State.CapacityHistory, 3)
	if err != nil || math.Abs(fc[0]-16.328) > 1e-12 {
		t.Errorf("green forecast %v, %v; want 16.328 first", fc, err)
	}
}

func decodeFile(path string) (*StateFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Decode(f)
}

// TestDecodeDefaultPenalties: with H_c ≠ 3 the default P and Q are the means of the
// paper's three values; H_c defaults to H_p when H_p < 3.
func TestDecodeDefaultPenalties(t *testing.T) {
	f, err := Parse([]byte(`{"interval": 1, "forecast": [1, 1], "params": {"prediction_horizon": 2},
		"jobs": [{"id": "a", "work": 1, "gain": {"map": 1}, "soft": 5}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if p := f.Params; p.ControlHorizon != 2 || len(p.MapPenalty) != 1 || math.Abs(p.MapPenalty[0]-mean(paperMapPenalty)) > 1e-15 {
		t.Errorf("params %+v", p)
	}
}

// TestDecodeBadFiles: every malformed file of testdata/rds/bad is rejected with a
// *sched.ValidationError listing its problems by JSON path; the lists are golden files
// (.want, one "path: message" per line; go test -run TestDecodeBadFiles -update).
func TestDecodeBadFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(stateData, "bad", "*.json"))
	if len(files) < 8 {
		t.Fatalf("%d bad files, want at least 8", len(files))
	}
	for _, path := range files {
		_, err := decodeFile(path)
		var ve *sched.ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("%s: error %v is not a *sched.ValidationError", path, err)
			continue
		}
		got := ve.Error() + "\n"
		want := strings.TrimSuffix(path, ".json") + ".want"
		if *update {
			if err := os.WriteFile(want, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		w, err := os.ReadFile(want)
		if err != nil {
			t.Fatalf("%v (run with -update)", err)
		}
		if diff := cmp.Diff(string(w), got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", path, diff)
		}
	}
}

// TestValidateNamesPaths: hand-built states and parameters get the same path-precise
// problems as files.
func TestValidateNamesPaths(t *testing.T) {
	s := &State{Interval: 1, CapacityHistory: []float64{1, math.NaN()}, Jobs: []Job{
		{ID: "a", Work: 1, Gain: Gain{Map: 1}, Soft: 3, Hard: 10, Priority: 1},
	}}
	err := s.Validate()
	if err == nil || !strings.Contains(err.Error(), "capacity_history[1]: ") || !strings.Contains(err.Error(), "jobs[0].hard: ") {
		t.Errorf("got %v", err)
	}
	p := DefaultParams()
	p.MapPenalty = []float64{1, 2}
	p.Deadlines = 7
	err = p.Validate()
	if err == nil || !strings.Contains(err.Error(), "params.map_penalty: ") || !strings.Contains(err.Error(), "params.deadlines: ") {
		t.Errorf("got %v", err)
	}
	if err := DefaultParams().Validate(); err != nil {
		t.Errorf("default params: %v", err)
	}
}

func TestParseLimits(t *testing.T) {
	big := make([]byte, MaxStateBytes+1)
	if _, err := Parse(big); err == nil {
		t.Error("oversized document: no error")
	}
	for _, doc := range []string{``, `[]`, `null`, `{"interval": 1e999, "jobs": []}`} {
		var ve *sched.ValidationError
		if _, err := Parse([]byte(doc)); !errors.As(err, &ve) {
			t.Errorf("%q: error %v, want a *sched.ValidationError", doc, err)
		}
	}
}
