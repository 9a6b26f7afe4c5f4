package external

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/external/protocol"
	"github.com/coraopt/coraopt/workload"
)

// Job states as the protocol's events tell them.
const (
	jobWaiting  uint8 = iota // not arrived
	jobActive                // arrived and admitted, not finished
	jobFinished              // finished
	jobRejected              // rejected
)

// state is what the engine's side of the protocol keeps between messages.
type state struct {
	w          *workload.Workload
	infos      []policies.JobInfo
	np         int
	dependents [][]int
	jobState   []uint8
	settled    int // jobs finished or rejected

	now   float64
	round int
	// events holds the events since the previous message, encoded, comma-separated.
	events  []byte
	nevents int
	msg     []byte // the message being written

	// sent[j*np+p] is the runnable count of job j in pool p the policy was last told;
	// dirty lists the jobs whose counts may have changed since.
	sent    []int32
	dirty   []int
	isDirty []bool
	counts  []int // scratch: one job's counts

	// The decision being served this instant: assignments left (Count decremented as
	// slots are given), or the standing order, or the container-assignment unit (a
	// round without assignments, or an instant without a round).
	assign []protocol.Assignment
	serve  serving
	order  []int // the standing order (protocol 2's decision.order); empty: none
	// compacted is settled when the order last dropped its settled jobs.
	compacted int
	ca        *policies.ContainerAssignment

	// What the program asked for in ready (protocol 2): the event kinds sent, and
	// when limited, the kinds that call a round (woken: one happened since the last).
	sendKinds, wakeKinds uint8
	limited, woken       bool

	given  map[[2]int]int // scratch of the checks: slots given per (job or worker, pool)
	listed []bool         // scratch of the checks: jobs in the order so far
	// protocol is the version the program answered in ready.
	protocol int
}

// serving is how this instant's free slots are served.
type serving uint8

const (
	serveNothing  serving = iota // no round, nothing usable
	serveAssign                  // the round's assignments
	serveStanding                // the standing order if any, else the container targets
)

// kindBit is an event kind's bit in sendKinds and wakeKinds.
func kindBit(kind string) uint8 {
	switch kind {
	case protocol.KindStart:
		return 1
	case protocol.KindTaskFinish:
		return 2
	case protocol.KindJobFinish:
		return 4
	case protocol.KindArrival:
		return 8
	case protocol.KindReject:
		return 16
	case protocol.KindCapacity:
		return 32
	case protocol.KindTick:
		return 64
	}
	return 0
}

const allKinds uint8 = 127

func kindMask(kinds []string) uint8 {
	var m uint8
	for _, k := range kinds {
		m |= kindBit(k)
	}
	return m
}

func newState(w *workload.Workload, infos []policies.JobInfo) *state {
	n, np := len(infos), len(w.Cluster.Pools)
	st := &state{w: w, infos: infos, np: np, dependents: make([][]int, n), jobState: make([]uint8, n),
		sent: make([]int32, n*np), isDirty: make([]bool, n), counts: make([]int, np), given: map[[2]int]int{},
		listed: make([]bool, n), sendKinds: allKinds}
	for i := range infos {
		for _, d := range infos[i].After {
			st.dependents[d] = append(st.dependents[d], i)
		}
	}
	return st
}

func (st *state) markDirty(j int) {
	if !st.isDirty[j] {
		st.isDirty[j] = true
		st.dirty = append(st.dirty, j)
	}
}

// addEvent records an event for the next message if the program wants its kind, and
// notes a wake-up.
func (st *state) addEvent(e protocol.Event) {
	bit := kindBit(e.Kind)
	if st.wakeKinds&bit != 0 {
		st.woken = true
	}
	if st.sendKinds&bit == 0 {
		return
	}
	if st.nevents > 0 {
		st.events = append(st.events, ',')
	}
	st.events = e.AppendJSON(st.events)
	st.nevents++
}

// observe records an engine event for the next message.
func (st *state) observe(v policies.View, e policies.Event) {
	st.now = e.Time
	pe := protocol.Event{Time: e.Time, Job: e.Job}
	switch e.Kind {
	case policies.EventCapacity:
		pe.Kind, pe.Pool, pe.Slots = protocol.KindCapacity, e.Pool, v.Capacity(e.Pool)
	case policies.EventTaskFinish:
		pe.Kind, pe.Stage, pe.Task, pe.Worker, pe.Pool = protocol.KindTaskFinish, e.Stage, e.Task, e.Worker, e.Pool
		fin := v.Finished(e.Job)
		for k := len(fin) - 1; k >= 0; k-- { // the task just finished is the last one
			if fin[k].Stage == e.Stage && fin[k].Task == e.Task {
				pe.Start = fin[k].Start
				break
			}
		}
		st.markDirty(e.Job)
	case policies.EventJobFinish:
		pe.Kind = protocol.KindJobFinish
		st.jobState[e.Job] = jobFinished
		st.settled++
		st.markDirty(e.Job)
		for _, d := range st.dependents[e.Job] {
			st.markDirty(d)
		}
	case policies.EventArrival:
		pe.Kind = protocol.KindArrival
		st.jobState[e.Job] = jobActive
		st.markDirty(e.Job)
	case policies.EventReject:
		pe.Kind = protocol.KindReject
		st.jobState[e.Job] = jobRejected
		st.settled++
		st.markDirty(e.Job)
	case policies.EventTick:
		pe.Kind = protocol.KindTick
	default:
		return
	}
	st.addEvent(pe)
}

// runnable fills st.counts with how many tasks j can start now in each pool: the
// pending tasks of its current stage, and of the next one when slow start has opened
// it, in their pools (what the engine would start, slot by slot, as long as
// View.Runnable holds).
func (st *state) runnable(v policies.View, j int) []int {
	clear(st.counts)
	if st.jobState[j] != jobActive || !v.Ready(j) {
		return st.counts
	}
	info := &st.infos[j]
	s := v.Stage(j)
	if s >= len(info.Stages) {
		return st.counts
	}
	st.counts[info.Stages[s].Pool] += v.Pending(j, s)
	if s+1 < len(info.Stages) && v.Done(j, s) >= info.Stages[s+1].StartAfter {
		st.counts[info.Stages[s+1].Pool] += v.Pending(j, s+1)
	}
	return st.counts
}

// free is how many slots of pool the engine offers this round.
func free(v policies.View, pool int) int {
	return max(0, min(v.Capacity(pool), v.Pools()[pool].Slots)-v.Busy(pool))
}

// roundMessage writes the round message: the events, the changed runnable counts, the
// free slots.
func (st *state) roundMessage(v policies.View) []byte {
	st.round++
	st.now = v.Now()
	b := append(st.msg[:0], `{"type":"round","round":`...)
	b = strconv.AppendInt(b, int64(st.round), 10)
	b = append(b, `,"time":`...)
	b = protocol.AppendFloat(b, st.now)
	b = st.appendEvents(b)
	b = append(b, `,"runnable":[`...)
	first := true
	for _, j := range st.dirty {
		st.isDirty[j] = false
		c := st.runnable(v, j)
		row := st.sent[j*st.np : (j+1)*st.np]
		same := true
		for p, n := range c {
			if int32(n) != row[p] {
				same = false
				row[p] = int32(n)
			}
		}
		if same {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, `{"job":`...)
		b = strconv.AppendInt(b, int64(j), 10)
		b = append(b, `,"tasks":[`...)
		for p, n := range c {
			if p > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(n), 10)
		}
		b = append(b, ']', '}')
	}
	st.dirty = st.dirty[:0]
	b = append(b, `],"free":[`...)
	for p := range st.np {
		if p > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(free(v, p)), 10)
	}
	b = append(b, ']', '}', '\n')
	st.msg = b
	return b
}

// appendEvents appends ,"events":[…] and empties the events.
func (st *state) appendEvents(b []byte) []byte {
	b = append(b, `,"events":[`...)
	b = append(b, st.events...)
	b = append(b, ']')
	st.events, st.nevents = st.events[:0], 0
	return b
}

func (st *state) admitMessage(j int) []byte {
	b := append(st.msg[:0], `{"type":"admit","time":`...)
	b = protocol.AppendFloat(b, st.now)
	b = strconv.AppendInt(append(b, `,"job":`...), int64(j), 10)
	b = st.appendEvents(b)
	b = append(b, '}', '\n')
	st.msg = b
	return b
}

func (st *state) endMessage() []byte {
	b := append(st.msg[:0], `{"type":"end","time":`...)
	b = protocol.AppendFloat(b, st.now)
	b = st.appendEvents(b)
	b = append(b, '}', '\n')
	st.msg = b
	return b
}

// check verifies a decision against the round it answers before any slot is served:
// every job known, active and able to start the tasks given to it, no pool given
// more slots than it offers, no worker more than its free slots, targets of known jobs
// and pools. The first problem is returned, at its field.
func (st *state) check(v policies.View, d *protocol.Decision) error {
	if d.Round != st.round {
		return &protocol.FieldError{Path: "round", Msg: fmt.Sprintf("answers round %d, but the engine asked round %d", d.Round, st.round)}
	}
	n, nw := len(st.infos), len(v.Workers())
	clear(st.given)
	bad := func(i int, field, format string, args ...any) error {
		return &protocol.FieldError{Path: fmt.Sprintf("assign[%d].%s", i, field), Msg: fmt.Sprintf(format, args...)}
	}
	for i, a := range d.Assign {
		if a.Job >= n {
			return bad(i, "job", "unknown job %d (the workload has %d jobs, 0 to %d)", a.Job, n, n-1)
		}
		if a.Pool >= st.np {
			return bad(i, "pool", "unknown pool %d (the cluster has %d)", a.Pool, st.np)
		}
		pool := st.w.Cluster.Pools[a.Pool].Name
		id := st.infos[a.Job].ID
		switch st.jobState[a.Job] {
		case jobWaiting:
			return bad(i, "job", "job %d (%s) has not arrived", a.Job, id)
		case jobFinished:
			return bad(i, "job", "job %d (%s) has finished", a.Job, id)
		case jobRejected:
			return bad(i, "job", "job %d (%s) was rejected", a.Job, id)
		}
		can := st.runnable(v, a.Job)[a.Pool]
		k := [2]int{a.Job, a.Pool}
		st.given[k] += a.Count
		if st.given[k] > can {
			return bad(i, "count", "job %d (%s) can start %d tasks in pool %s now; the assignments give it %d", a.Job, id, can, pool, st.given[k])
		}
		kp := [2]int{-1, a.Pool}
		st.given[kp] += a.Count
		if f := free(v, a.Pool); st.given[kp] > f {
			return bad(i, "count", "pool %s offers %d free slots; the assignments give %d (more slots than free)", pool, f, st.given[kp])
		}
		if a.Worker != nil {
			wk := *a.Worker
			if wk >= nw {
				return bad(i, "worker", "unknown worker %d (the cluster has %d)", wk, nw)
			}
			kw := [2]int{-2 - wk, a.Pool}
			st.given[kw] += a.Count
			if f := v.Workers()[wk].Slots[a.Pool] - v.WorkerBusy(wk, a.Pool); st.given[kw] > f {
				return bad(i, "worker", "worker %d has %d free slots in pool %s; the assignments give it %d (a slot given twice)", wk, max(f, 0), pool, st.given[kw])
			}
		}
	}
	if d.Order != nil && st.protocol < 2 {
		return &protocol.FieldError{Path: "order", Msg: "needs protocol 2 (the program answered protocol 1)"}
	}
	clear(st.listed)
	for i, j := range d.Order {
		if j >= n {
			return &protocol.FieldError{Path: fmt.Sprintf("order[%d]", i), Msg: fmt.Sprintf("unknown job %d (the workload has %d jobs, 0 to %d)", j, n, n-1)}
		}
		if st.listed[j] {
			return &protocol.FieldError{Path: fmt.Sprintf("order[%d]", i), Msg: fmt.Sprintf("job %d (%s) is listed twice", j, st.infos[j].ID)}
		}
		st.listed[j] = true
	}
	for i, t := range d.Targets {
		if t.Job >= n {
			return &protocol.FieldError{Path: fmt.Sprintf("targets[%d].job", i), Msg: fmt.Sprintf("unknown job %d (the workload has %d jobs, 0 to %d)", t.Job, n, n-1)}
		}
		if t.Pool >= st.np {
			return &protocol.FieldError{Path: fmt.Sprintf("targets[%d].pool", i), Msg: fmt.Sprintf("unknown pool %d (the cluster has %d)", t.Pool, st.np)}
		}
	}
	return nil
}

// apply takes a checked decision for this round's Picks: the targets into the
// container-assignment unit, the assignments to serve.
func (st *state) apply(v policies.View, d *protocol.Decision) {
	for _, t := range d.Targets {
		st.ca.Targets(v, t.Pool)[t.Job] = t.Target
	}
	if d.Order != nil {
		st.order, st.compacted = append(st.order[:0], d.Order...), -1
	}
	st.assign = append(st.assign[:0], d.Assign...)
	st.serve = serveAssign
	if len(d.Assign) == 0 {
		st.serve = serveStanding
	}
}

// pick serves one offered slot: the first assignment pinned to its worker, else the
// first assignment of its pool on any worker, else (in a round without assignments)
// the container-assignment unit's choice. A chosen slot is reported to the policy as
// a start event in the next message.
func (st *state) pick(v policies.View, s policies.Slot) (int, bool) {
	j, ok := -1, false
	switch {
	case st.serve == serveNothing:
	case st.serve == serveStanding && len(st.order) > 0:
		if st.compacted != st.settled {
			// Settled jobs never run again: drop them, so an order of every job costs
			// no more per slot than one of the active jobs.
			st.order = slices.DeleteFunc(st.order, func(k int) bool { return st.jobState[k] >= jobFinished })
			st.compacted = st.settled
		}
		for _, k := range st.order {
			if v.Runnable(k, s.Pool) {
				j, ok = k, true
				break
			}
		}
	case st.serve == serveStanding:
		j, ok = st.ca.Pick(v, s)
	default:
		for pinned := 1; pinned >= 0 && !ok; pinned-- {
			for i := range st.assign {
				a := &st.assign[i]
				if a.Count == 0 || a.Pool != s.Pool || (a.Worker != nil) != (pinned == 1) || (a.Worker != nil && *a.Worker != s.Worker) {
					continue
				}
				a.Count--
				j, ok = a.Job, true
				break
			}
		}
	}
	if !ok {
		return 0, false
	}
	// The task the engine starts: the lowest-numbered pending one of the job's current
	// stage, or of the next under slow start (the policies package doc).
	stage := v.Stage(j)
	if info := &st.infos[j]; info.Stages[stage].Pool != s.Pool || v.Pending(j, stage) == 0 {
		stage++
	}
	task := st.infos[j].Stages[stage].Tasks - v.Pending(j, stage)
	st.addEvent(protocol.Event{Kind: protocol.KindStart, Time: v.Now(), Job: j, Stage: stage, Task: task, Worker: s.Worker, Pool: s.Pool})
	st.markDirty(j)
	return j, true
}
