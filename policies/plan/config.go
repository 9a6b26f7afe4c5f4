package plan

import "fmt"

// DefaultSlot is the slot length in seconds when Config.Slot is 0: the bound's default
// (--slot 60), about one wave of the generated workloads' tasks.
const DefaultSlot = 60

// DefaultMaxSlots bounds the horizon when Config.MaxSlots is 0.
const DefaultMaxSlots = 256

// NoBranching is the default Config.Budget: never branch on a stalled layer.
const NoBranching = -1

// The planning models (Config.Model).
const (
	// Staged plans each remaining stage of a job as its own part, in order (the
	// package doc): the default.
	Staged = "staged"
	// Pooled plans a job's remaining work as one divisible pool per resource, the
	// papers' model (cora.txt §III-A's "remaining Map and Reduce tasks", rush.txt §IV's
	// per-pool demand).
	Pooled = "pooled"
)

// The ways a plan is carried out (Config.Dispatch).
const (
	// DispatchPlan gives each free slot to the runnable job whose stage on the pool has
	// the earliest promise (the package doc): the default.
	DispatchPlan = "plan"
	// DispatchTargets turns the plan's first slot into target containers per job for
	// the container-assignment unit of rush.txt §IV (policies.ContainerAssignment), as
	// the papers do.
	DispatchTargets = "targets"
)

// Config is a planner's shape: the slotted problem, when it is re-solved and how it is
// carried out. The zero value is the default of every field.
type Config struct {
	// Slot is the slot length in seconds (0: DefaultSlot).
	Slot float64
	// MaxSlots bounds the horizon; past it the slot is lengthened (0: DefaultMaxSlots).
	MaxSlots int
	// Budget is onion peeling's stall-branch budget (solve.Request.Budget). 0 means
	// NoBranching: where genuine ties stall a layer (equal jobs, utilities flat at 0
	// such as a hard budget's), exploring every choice can cost minutes per decision;
	// an online plan redone at the next event takes the keep rule's answer instead
	// (exact: false). Set it positive to branch.
	Budget int
	// Interval is the shortest time in seconds between two plans triggered by task
	// finishes alone; an arrival, a job finish, a rejection or a capacity step always
	// re-plans. 0 (the default) re-plans at every decision instant, as cora.txt §III-A
	// triggers ("the completion of a Map or Reduce task in the system").
	Interval float64
	// Log plans on ln U instead of U for sigmoid utilities (PlanUtility). cora, oracle
	// and rush set it; cora-final and rush-alg3 plan on U as their papers print it.
	Log bool
	// Model is Staged (default) or Pooled.
	Model string
	// Dispatch is DispatchPlan (default) or DispatchTargets.
	Dispatch string
	// Caps bounds each stage's units per slot by the tasks it can run at once
	// (max_parallel). Off by default: the package doc says what it costs and gains.
	Caps bool
}

// WithDefaults fills the zero fields with the defaults.
func (c Config) WithDefaults() Config {
	if !(c.Slot > 0) {
		c.Slot = DefaultSlot
	}
	if c.MaxSlots <= 0 {
		c.MaxSlots = DefaultMaxSlots
	}
	if c.Budget == 0 {
		c.Budget = NoBranching
	}
	if c.Model == "" {
		c.Model = Staged
	}
	if c.Dispatch == "" {
		c.Dispatch = DispatchPlan
	}
	return c
}

// Validate reports a Model or Dispatch this package does not know.
func (c Config) Validate() error {
	c = c.WithDefaults()
	if c.Model != Staged && c.Model != Pooled {
		return fmt.Errorf("plan: model %q unknown (have %s, %s)", c.Model, Staged, Pooled)
	}
	if c.Dispatch != DispatchPlan && c.Dispatch != DispatchTargets {
		return fmt.Errorf("plan: dispatch %q unknown (have %s, %s)", c.Dispatch, DispatchPlan, DispatchTargets)
	}
	return nil
}
