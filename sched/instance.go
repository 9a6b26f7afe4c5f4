package sched

// Instance is a validated scheduling problem. Build one with Decode (from JSON) or by
// hand followed by Validate.
type Instance struct {
	Name string
	// Horizon is T, the number of slots. HorizonSource says where it came from:
	// "file", or when the file has none "capacity" (length of a per-slot capacity array),
	// "demand" (smallest T with room for every job) or "utility" (latest deadline or
	// budget named by a utility, when that is later).
	Horizon       int
	HorizonSource string
	Resources     []Resource
	Jobs          []Job
	Robust        *Robust // RS parameters; nil when absent
}

// Resource is one kind of capacity (containers, CPU, memory units…).
type Resource struct {
	Name string
	// Capacity per slot, Capacity[t-1] for slot t; always Horizon entries once validated
	// (a constant capacity in the file is expanded).
	Capacity []int
}

// Cap is the capacity in slot t (1-based).
func (r *Resource) Cap(t int) int { return r.Capacity[t-1] }

// Job is one job. Demand is indexed like Instance.Resources (units × slots of each
// resource); at least one entry is positive.
type Job struct {
	ID     string
	Demand []int
	// Release is the first slot the job may use (default 1).
	Release int
	// MaxParallel caps the units of any one resource the job may hold in one slot
	// (0: no cap).
	MaxParallel int
	// TaskSlots is R_i, the slots one task holds a container (rush.txt §III-C; default 1).
	TaskSlots int
	Utility   Utility
	Runtime   *Runtime // runtime distribution for RS; nil when absent
}

// Robust holds RS's parameters (rush.txt §II): the quantile θ, the KL budget δ and the
// number of bins used to quantize reference distributions.
type Robust struct {
	Theta float64 `json:"theta"`
	Delta float64 `json:"delta"`
	Bins  int     `json:"bins,omitempty"`
}

// ResourceIndex returns the index of the named resource, or -1.
func (in *Instance) ResourceIndex(name string) int {
	for i := range in.Resources {
		if in.Resources[i].Name == name {
			return i
		}
	}
	return -1
}

// JobIndex returns the index of the job with the given id, or -1.
func (in *Instance) JobIndex(id string) int {
	for i := range in.Jobs {
		if in.Jobs[i].ID == id {
			return i
		}
	}
	return -1
}

// UtilityTable returns U_i(t) for every job and slot: out[i][t-1].
func (in *Instance) UtilityTable() [][]float64 {
	out := make([][]float64, len(in.Jobs))
	for i := range in.Jobs {
		row := make([]float64, in.Horizon)
		for t := 1; t <= in.Horizon; t++ {
			row[t-1] = in.Jobs[i].Utility.At(t)
		}
		out[i] = row
	}
	return out
}
