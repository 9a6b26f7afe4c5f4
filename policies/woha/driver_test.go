package woha

import "fmt"

// toyCluster is a discrete-event Hadoop-1 cluster used only by this package's tests: a
// map pool and a reduce pool, workflows arriving at their Arrival, jobs becoming ready
// when their prerequisites finish, tasks running for runtime(w, j, pool) seconds. It
// keeps its own books and fails the test when a Picker hands out a job that has no task
// waiting for the pool, or leaves a slot idle while a task waits for it.
type toyCluster struct {
	t       fataler
	slots   [2]int
	runtime func(w, j int, p Pool) float64
}

// fataler is what toyCluster needs of a *testing.T or *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

type toyEvent struct {
	wf   int // workflow index in the input
	job  int // -1: the workflow arrives
	pool Pool
}

// toyRun is what a run produced.
type toyRun struct {
	completion []float64 // per workflow, absolute
	gantt      []toySlice
}

type toySlice struct {
	wf, job    int
	pool       Pool
	start, end float64
}

func (r toyRun) met(ws []Workflow) []bool {
	m := make([]bool, len(ws))
	for i := range ws {
		m[i] = r.completion[i] <= ws[i].AbsDeadline()+1e-9
	}
	return m
}

func (c toyCluster) run(p Picker, ws []Workflow) toyRun {
	t := c.t
	t.Helper()
	type jobBook struct {
		waitingPrereqs int
		ready          bool
		waiting        [2]int
		unfinished     [2]int
	}
	books := make([][]jobBook, len(ws))
	deps := make([]*dag, len(ws))
	left := make([]int, len(ws))
	handle := make([]int, len(ws))
	byHandle := map[int]int{}
	for i := range ws {
		deps[i] = compile(&ws[i])
		books[i] = make([]jobBook, len(ws[i].Jobs))
		for j := range ws[i].Jobs {
			books[i][j] = jobBook{waitingPrereqs: len(deps[i].prereq[j]),
				unfinished: [2]int{ws[i].Jobs[j].Maps, ws[i].Jobs[j].Reduces}}
		}
		left[i] = len(ws[i].Jobs)
	}
	res := toyRun{completion: make([]float64, len(ws))}
	var ev eventQueue[toyEvent]
	for i := range ws {
		ev.push(ws[i].Arrival, toyEvent{wf: i, job: -1})
	}
	free := c.slots
	var finishJob func(now float64, i, j int)
	ready := func(now float64, i, j int) {
		b := &books[i][j]
		b.ready = true
		switch {
		case b.unfinished[MapPool] > 0:
			b.waiting[MapPool] = b.unfinished[MapPool]
		case b.unfinished[ReducePool] > 0:
			b.waiting[ReducePool] = b.unfinished[ReducePool]
		}
		if err := p.JobReady(now, Choice{handle[i], j}); err != nil {
			t.Fatalf("JobReady: %v", err)
		}
		if b.unfinished == [2]int{} {
			finishJob(now, i, j)
		}
	}
	finishJob = func(now float64, i, j int) {
		left[i]--
		if left[i] == 0 {
			res.completion[i] = now
		}
		for _, k := range deps[i].dependents[j] {
			books[i][k].waitingPrereqs--
			if books[i][k].waitingPrereqs == 0 {
				ready(now, i, k)
			}
		}
	}
	for ev.len() > 0 {
		now := ev.next()
		for ev.len() > 0 && ev.next() == now {
			_, e := ev.pop()
			if e.job < 0 {
				h, err := p.Submit(now, &ws[e.wf])
				if err != nil {
					t.Fatalf("Submit %s: %v", ws[e.wf].ID, err)
				}
				handle[e.wf] = h
				byHandle[h] = e.wf
				for j := range ws[e.wf].Jobs {
					if books[e.wf][j].waitingPrereqs == 0 && !books[e.wf][j].ready {
						ready(now, e.wf, j)
					}
				}
				continue
			}
			free[e.pool]++
			b := &books[e.wf][e.job]
			b.unfinished[e.pool]--
			if err := p.TaskFinished(now, Choice{handle[e.wf], e.job}, e.pool); err != nil {
				t.Fatalf("TaskFinished: %v", err)
			}
			if b.unfinished[e.pool] == 0 {
				if e.pool == MapPool && b.unfinished[ReducePool] > 0 {
					b.waiting[ReducePool] = b.unfinished[ReducePool]
				} else {
					finishJob(now, e.wf, e.job)
				}
			}
		}
		for _, pool := range []Pool{MapPool, ReducePool} {
			for free[pool] > 0 {
				ch, ok := p.Pick(now, pool)
				if !ok {
					for i := range books {
						for j := range books[i] {
							if books[i][j].waiting[pool] > 0 {
								t.Fatalf("t=%v: %s slot idle while %s/%s has %d tasks waiting",
									now, pool, ws[i].ID, ws[i].Jobs[j].ID, books[i][j].waiting[pool])
							}
						}
					}
					break
				}
				i, known := byHandle[ch.Workflow]
				if !known || ch.Job < 0 || ch.Job >= len(books[i]) || books[i][ch.Job].waiting[pool] == 0 {
					t.Fatalf("t=%v: Pick(%s) = %+v, which has no task waiting", now, pool, ch)
				}
				if err := p.TaskStarted(now, ch, pool); err != nil {
					t.Fatalf("TaskStarted: %v", err)
				}
				books[i][ch.Job].waiting[pool]--
				free[pool]--
				d := c.runtime(i, ch.Job, pool)
				res.gantt = append(res.gantt, toySlice{wf: i, job: ch.Job, pool: pool, start: now, end: now + d})
				ev.push(now+d, toyEvent{wf: i, job: ch.Job, pool: pool})
			}
		}
	}
	for i := range ws {
		if left[i] != 0 {
			t.Fatalf("workflow %s never finished (%d jobs left)", ws[i].ID, left[i])
		}
	}
	return res
}

// estimates runs every task for exactly its estimated time.
func estimates(ws []Workflow) func(w, j int, p Pool) float64 {
	return func(w, j int, p Pool) float64 {
		if p == MapPool {
			return ws[w].Jobs[j].MapTime
		}
		return ws[w].Jobs[j].ReduceTime
	}
}

func (r toyRun) String() string {
	return fmt.Sprintf("completion %v", r.completion)
}
