package policies

// ContainerAssignment is the container assignment (CA) unit of rush.txt §IV, written
// once for every policy that computes target slots per job (cora, rush, rds, oracle):
// the policy writes targets into Targets(v, pool) — in StartRound, Tick or wherever it
// re-plans — and the embedded Pick gives each free slot of the pool to the runnable
// job with the largest target − held gap, ties to the earlier job by (arrival, id).
// The gap shrinks by one with every slot the job receives, because Held counts the
// task the engine has just started; that is rds.txt Alg. 1's Δu_j −= r_slot with
// r_slot one slot.
//
// Embed a *ContainerAssignment in the policy's struct so its Pick is the policy's.
type ContainerAssignment struct {
	// Conserving gives a free slot to the largest gap even when no gap is positive, so
	// no slot idles while a job could use it (RUSH's CA, "selects the job with the
	// largest difference"). Without it only positive gaps receive slots (rds.txt
	// Alg. 1: a job with Δu ≤ 0 gives up its turn).
	Conserving bool
	targets    [][]float64 // [pool][job]
}

// Targets returns pool's target vector indexed by job, with one entry per job of the
// workload; entries of inactive jobs are ignored. Values persist until overwritten.
func (ca *ContainerAssignment) Targets(v View, pool int) []float64 {
	for len(ca.targets) <= pool {
		ca.targets = append(ca.targets, nil)
	}
	if len(ca.targets[pool]) != v.NumJobs() {
		ca.targets[pool] = make([]float64, v.NumJobs())
	}
	return ca.targets[pool]
}

// Pick gives s to the runnable active job with the largest target − held gap.
func (ca *ContainerAssignment) Pick(v View, s Slot) (int, bool) {
	t := ca.Targets(v, s.Pool)
	best, bestGap := -1, 0.0
	for _, j := range v.Active() { // rank order: the first of equal gaps wins
		if !v.Runnable(j, s.Pool) {
			continue
		}
		gap := t[j] - float64(v.Held(j, s.Pool))
		if best < 0 || gap > bestGap {
			best, bestGap = j, gap
		}
	}
	if best < 0 || (!ca.Conserving && bestGap <= 0) {
		return 0, false
	}
	return best, true
}
