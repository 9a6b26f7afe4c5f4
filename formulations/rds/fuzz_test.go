package rds

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/coraopt/coraopt/sched"
)

// FuzzParse: no input panics or hangs; every rejection is a *sched.ValidationError whose
// problems all say something; every accepted file validates, forecasts, and builds both
// stage models without error (or ErrNoJobs). The seed corpus is testdata/rds (good and
// bad state files) plus testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	for _, pattern := range []string{"*.json", "bad/*.json"} {
		files, _ := filepath.Glob(filepath.Join(stateData, pattern))
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sf, err := Parse(data)
		if err != nil {
			var ve *sched.ValidationError
			if !errors.As(err, &ve) || len(ve.Problems) == 0 {
				t.Fatalf("Parse error %v is not a non-empty *sched.ValidationError", err)
			}
			for _, p := range ve.Problems {
				if p.Msg == "" {
					t.Fatalf("problem at %q has no message", p.Path)
				}
			}
			return
		}
		if err := sf.State.Validate(); err != nil {
			t.Fatalf("accepted state does not validate: %v", err)
		}
		if err := sf.Params.Validate(); err != nil {
			t.Fatalf("accepted params do not validate: %v", err)
		}
		pred, _ := sf.Predictor()
		forecast, err := pred.Forecast(sf.State.CapacityHistory, sf.Params.PredictionHorizon)
		if err != nil {
			return // e.g. a green series with NaN power; RunStep reports it
		}
		for _, build := range []func(*State, []float64, Params) (any, any, error){
			func(s *State, f []float64, p Params) (any, any, error) { return BuildRHC(s, f, p) },
			func(s *State, f []float64, p Params) (any, any, error) { return BuildShortfall(s, f, p) },
		} {
			if _, _, err := build(&sf.State, forecast, sf.Params); err != nil && !errors.Is(err, ErrNoJobs) {
				t.Fatalf("accepted file does not build: %v", err)
			}
		}
	})
}
