package workload

import (
	"encoding/json"
	"fmt"
	"sync"
)

// fileLimits are bounds the workload file's JSON Schema sets, read from the embedded
// schema itself so that the Go code that builds or checks workloads (ReadSWF,
// Validate) applies the very numbers the schema publishes instead of copies of them.
type fileLimits struct {
	Seconds  float64 // a time in seconds ($defs.seconds): arrivals, capacity steps
	Deadline float64 // a job's deadline in seconds after its arrival
	Runtime  float64 // a runtime distribution's value, mean, min, max ($defs.positive)
	Slots    int     // a pool's slots ($defs.slots)
	Tasks    int     // a stage's tasks
	// MinSpeed and MaxSpeed bound a worker's speed (a task of base runtime r runs
	// r/speed seconds).
	MinSpeed, MaxSpeed float64
}

// limits are the schema's bounds; a schema without one of them is a build error that
// every test of the package reports (TestLimitsFromSchema).
var limits = sync.OnceValue(func() fileLimits {
	l, err := limitsOf(schemaJSON)
	if err != nil {
		panic(err)
	}
	return l
})

// limitsOf reads the bounds from a workload schema.
func limitsOf(schema []byte) (fileLimits, error) {
	var doc map[string]any
	if err := json.Unmarshal(schema, &doc); err != nil {
		return fileLimits{}, fmt.Errorf("workload: schema: %w", err)
	}
	var l fileLimits
	var bad []string
	num := func(keys ...string) float64 {
		var v any = doc
		for _, k := range keys {
			m, ok := v.(map[string]any)
			if !ok {
				v = nil
				break
			}
			v = m[k]
		}
		x, ok := v.(float64)
		if !ok {
			bad = append(bad, fmt.Sprint(keys))
		}
		return x
	}
	defs := func(keys ...string) []string { return append([]string{"$defs"}, keys...) }
	l.Seconds = num(defs("seconds", "maximum")...)
	l.Deadline = num(defs("job", "properties", "deadline", "maximum")...)
	l.Runtime = num(defs("positive", "maximum")...)
	l.Slots = int(num(defs("slots", "maximum")...))
	l.Tasks = int(num(defs("stage", "properties", "tasks", "maximum")...))
	l.MinSpeed = num(defs("worker", "properties", "speed", "minimum")...)
	l.MaxSpeed = num(defs("worker", "properties", "speed", "maximum")...)
	if len(bad) > 0 {
		return fileLimits{}, fmt.Errorf("workload: schema: no number at %v", bad)
	}
	return l, nil
}
