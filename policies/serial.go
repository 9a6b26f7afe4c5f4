package policies

// Serial is the dispatch rule of the one-job-at-a-time baselines of rush.txt §V-B ("The
// fact that EDF and FIFO only execute one job at a time creates head-of-line
// blocking"): each round the policy names an order of the jobs (arrival for FIFO,
// deadline for EDF) and the first ready job in it — the head — gets every free slot it
// can use, but only while no other job holds a slot, so two jobs never run at once.
// Slots the head cannot use stay idle (the head-of-line blocking). When the head
// changes before it has finished (a job arrives with an earlier deadline, or a job
// earlier in the order becomes ready), the displaced job keeps its running tasks —
// tasks are never killed — and the new head starts once they have finished.
//
// The per-slot policies (fifo, edf) are work-conserving across jobs instead: a free
// slot the first job cannot use goes to the next.
type Serial struct {
	head int // the head + 1; 0 (the zero value): no ready job
}

// Lead makes the first ready job of order the head for this round (call it from
// StartRound).
func (s *Serial) Lead(v View, order []int) {
	s.head = 0
	for _, j := range order {
		if v.Ready(j) {
			s.head = j + 1
			return
		}
	}
}

// Pick gives the slot to the head when it has a task to run there and no other job
// holds a slot.
func (s *Serial) Pick(v View, slot Slot) (int, bool) {
	j := s.head - 1
	if j < 0 || !v.Runnable(j, slot.Pool) {
		return 0, false
	}
	for p := range v.Pools() {
		if v.Busy(p) != v.Held(j, p) {
			return 0, false // another job's tasks still run: wait for them
		}
	}
	return j, true
}
