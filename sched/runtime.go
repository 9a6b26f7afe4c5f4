package sched

// Runtime describes the uncertain remaining work of a job for RS (rush.txt §III-A, §IV):
// a reference distribution of v_i in container-slots, from which formulations/rs builds a
// quantized PMF. Which fields apply depends on Type:
//
//	impulse    Mean (per-task runtime in slots) × Tasks: all mass on one value
//	           (RUSH's mean-time estimator)
//	gaussian   per-task Mean and Std, CLT over Tasks: N(Tasks·Mean, Tasks·Std²)
//	empirical  per-task runtime Samples → sample mean/variance → CLT over Tasks
//	pmf        explicit Probabilities over bins of width BinWidth starting at 0
type Runtime struct {
	Type          string    `json:"type"`
	Mean          float64   `json:"mean,omitempty"`
	Std           float64   `json:"std,omitempty"`
	Tasks         int       `json:"tasks,omitempty"`
	Samples       []float64 `json:"samples,omitempty"`
	Probabilities []float64 `json:"probabilities,omitempty"`
	BinWidth      float64   `json:"bin_width,omitempty"`
}
