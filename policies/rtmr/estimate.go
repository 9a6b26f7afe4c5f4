package rtmr

// Estimator keeps the cluster-wide worst-case estimates η, c_m^max and c_r^max and raises
// them from every finished job by the three update equations of rtmr.txt §IV-A:
//
//	η       = max(η, δ^r/δ)
//	c_m^max = max(c_m^max, ℰ_1^m/δ_1^m, …, ℰ_M^m/δ_M^m)
//	c_r^max = max(c_r^max, ℰ_1^r/δ_1^r, …, ℰ_R^r/δ_R^r)
//
// The observed ℰ_i are raw task times on whatever node ran the task, not normalised by its
// speed: the estimate must bound the slowest node (§IV-A, last paragraph).
type Estimator struct {
	cur Estimates
}

// NewEstimator starts from the given estimates (the operator's prior).
func NewEstimator(initial Estimates) *Estimator { return &Estimator{cur: initial} }

// Current are the estimates as they stand.
func (e *Estimator) Current() Estimates { return e.cur }

// Observe applies the §IV-A updates for one finished job: input is δ, reduceInput the
// observed δ^r, cm and cr the largest observed ℰ/δ of its map and reduce tasks (0 when
// the stage had no task).
func (e *Estimator) Observe(input, reduceInput, cm, cr float64) {
	if input > 0 {
		e.cur.Eta = max(e.cur.Eta, reduceInput/input)
	}
	e.cur.CmMax = max(e.cur.CmMax, cm)
	e.cur.CrMax = max(e.cur.CrMax, cr)
}
