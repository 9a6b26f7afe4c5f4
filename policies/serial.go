package policies

// Serial is the dispatch rule of the one-job-at-a-time baselines of rush.txt §V-B ("The
// fact that EDF and FIFO only execute one job at a time creates head-of-line
// blocking"): each round the policy names an order of the jobs (arrival for FIFO,
// deadline for EDF) and the first ready job in it — the head — gets every free slot it
// can use, but only while no other job holds a slot, so two jobs never run at once.
// Slots the head cannot use stay idle (the head-of-line blocking).
//
// When the head changes before the running job has finished (a job arrives with an
// earlier deadline, or a job earlier in the order becomes ready), the displaced job
// starts nothing more and keeps its running tasks — tasks are never killed — and the
// new head starts once they have finished. One exception keeps this from deadlocking:
// tasks of the displaced job's next stage started early under slow start hold their
// slots until its current stage ends, so it keeps getting slots for that stage until
// the stage ends, and only then drains.
//
// The per-slot policies (fifo, edf) are work-conserving across jobs instead: a free
// slot the first job cannot use goes to the next.
type Serial struct {
	head, runner int // job + 1; 0: none
}

// Lead makes the first ready job of order the head for this round, and notes the job
// whose tasks run, if any (call it from StartRound).
func (s *Serial) Lead(v View, order []int) {
	s.head, s.runner = 0, 0
	for _, j := range order {
		if v.Ready(j) {
			s.head = j + 1
			break
		}
	}
	for _, j := range v.Active() {
		for p := range v.Pools() {
			if v.Held(j, p) > 0 {
				s.runner = j + 1 // at most one: Pick never lets a second job start
				return
			}
		}
	}
}

// Pick gives the slot to the head when it has a task to run there and no other job
// holds a slot, or to a displaced job finishing the stage its early tasks wait for.
func (s *Serial) Pick(v View, slot Slot) (int, bool) {
	if r := s.runner - 1; r >= 0 && s.runner != s.head {
		if st := v.Stage(r); waitsForStage(v, r) && v.Job(r).Stages[st].Pool == slot.Pool && v.Pending(r, st) > 0 {
			return r, true // the engine starts a task of r's current stage: its pool, tasks pending
		}
		return 0, false
	}
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

// waitsForStage reports whether j has tasks of its next stage started under slow
// start, which hold their slots until its current stage ends.
func waitsForStage(v View, j int) bool {
	st := v.Stage(j)
	return st+1 < len(v.Job(j).Stages) && v.Running(j, st+1) > 0
}
