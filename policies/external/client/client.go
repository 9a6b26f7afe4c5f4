// Package client is the Go side of an external policy (docs/protocol.md): a program
// that coraopt runs as `--policies exec:NAME=CMD` calls Serve with its Policy, and
// Serve speaks the protocol on standard input and output — the handshake, one
// OnRound per round, OnAdmit per arrival when the policy is an Admitter, the end. It
// keeps the State a policy decides from (jobs active in rank order, runnable tasks,
// free slots, the tasks that finished with their observed runtimes), the same as the
// reference Python client (clients/python/coraopt_policy.py). FIFO and EDF reproduce
// the built-in fifo and edf.
package client

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/coraopt/coraopt/policies/external/protocol"
)

// Policy decides a round: which jobs get the free slots (Decision.Give) or which
// container targets the engine's assignment unit follows (Decision.SetTarget).
type Policy interface {
	OnRound(s *State) Decision
}

// Admitter is a Policy that decides at each arrival whether the job runs; Serve asks
// the engine for admit messages when the policy implements it.
type Admitter interface {
	OnAdmit(s *State, job int) bool
}

// Helloer is a Policy that looks at the workload first; an error refuses it (the run
// is reported as unsupported input, exit 2).
type Helloer interface {
	OnHello(s *State) error
}

// Options are what the policy asks of the engine in its ready.
type Options struct {
	// Tick, when > 0, asks for a round every Tick seconds from 0 while jobs remain.
	Tick float64
	// Conserving makes the assignment unit give free slots even to non-positive gaps.
	Conserving bool
	// Wake, when not nil, asks for a round only at the first instant, at ticks and
	// after events of these kinds (protocol.WakeKinds); between rounds the engine
	// serves free slots by the standing order (Decision.SetOrder) or the container
	// targets. Nil: a round at every instant where a free slot can be used.
	Wake []string
	// Events, when not nil, are the only event kinds the engine sends (State then
	// knows only what they tell). Nil: every kind.
	Events []string
}

// Standing are the options of a policy whose standing order never changes (FIFO and
// EDF with Standing set): one round, no events.
func Standing() Options { return Options{Wake: []string{}, Events: []string{}} }

// Task is a task that started; Finish is 0 while it runs.
type Task struct {
	Job, Stage, Task, Worker, Pool int
	Start, Finish                  float64
}

// Job states.
const (
	waiting uint8 = iota
	active
	finished
	rejected
)

// State is what the policy knows: the hello, and what the messages so far told.
type State struct {
	Hello *protocol.Hello
	// Round and Time are the current round's (Time is the last message's).
	Round int
	Time  float64
	// Events are the current message's events (valid until the next message).
	Events []protocol.Event
	// Free is the number of slots the engine offers this round, per pool.
	Free []int
	// Finished holds each job's finished tasks in finishing order (what an estimator
	// learns from), Running its started unfinished ones.
	Finished [][]Task
	Running  [][]Task

	status   []uint8
	runnable [][]int
	active   []int
}

func newState(h *protocol.Hello) *State {
	n, np := len(h.Workload.Jobs), len(h.Workload.Pools)
	s := &State{Hello: h, Free: make([]int, np), Finished: make([][]Task, n), Running: make([][]Task, n),
		status: make([]uint8, n), runnable: make([][]int, n)}
	for j := range s.runnable {
		s.runnable[j] = make([]int, np)
	}
	return s
}

// Job is job j's static description.
func (s *State) Job(j int) *protocol.Job { return &s.Hello.Workload.Jobs[j] }

// Active lists the arrived, admitted, unfinished jobs in rank (arrival, id) order.
func (s *State) Active() []int { return s.active }

// RunnableTasks is how many tasks job j can start now in pool.
func (s *State) RunnableTasks(j, pool int) int { return s.runnable[j][pool] }

// Runnable lists the active jobs that can start a task in pool, in rank order.
func (s *State) Runnable(pool int) []int {
	var out []int
	for _, j := range s.active {
		if s.runnable[j][pool] > 0 {
			out = append(out, j)
		}
	}
	return out
}

// FreeSlots is how many slots of pool the engine offers this round.
func (s *State) FreeSlots(pool int) int { return s.Free[pool] }

// Target is the time job j aims at (its deadline, else the time its utility names),
// +Inf when none.
func (s *State) Target(j int) float64 {
	if t := s.Job(j).Target; t != nil {
		return *t
	}
	return math.Inf(1)
}

// TimeToDeadline is Target(j) − Time.
func (s *State) TimeToDeadline(j int) float64 { return s.Target(j) - s.Time }

func (s *State) apply(events []protocol.Event) {
	s.Events = events
	for _, e := range events {
		switch e.Kind {
		case protocol.KindStart:
			s.Running[e.Job] = append(s.Running[e.Job], Task{Job: e.Job, Stage: e.Stage, Task: e.Task, Worker: e.Worker, Pool: e.Pool, Start: e.Time})
		case protocol.KindTaskFinish:
			run := s.Running[e.Job]
			for i, t := range run {
				if t.Stage == e.Stage && t.Task == e.Task {
					t.Finish = e.Time
					s.Finished[e.Job] = append(s.Finished[e.Job], t)
					s.Running[e.Job] = slices.Delete(run, i, i+1)
					break
				}
			}
		case protocol.KindArrival:
			s.status[e.Job] = active
			s.insertActive(e.Job)
		case protocol.KindJobFinish, protocol.KindReject:
			s.status[e.Job] = finished
			if e.Kind == protocol.KindReject {
				s.status[e.Job] = rejected
			}
			if i := slices.Index(s.active, e.Job); i >= 0 {
				s.active = slices.Delete(s.active, i, i+1)
			}
			clear(s.runnable[e.Job])
		}
	}
}

// insertActive keeps active in rank order (arrivals come in it; this is a guard).
func (s *State) insertActive(j int) {
	r := s.Job(j).Rank
	i := len(s.active)
	for i > 0 && s.Job(s.active[i-1]).Rank > r {
		i--
	}
	s.active = slices.Insert(s.active, i, j)
}

// Decision is a round's answer.
type Decision struct {
	Assign  []protocol.Assignment
	Targets []protocol.Target
	Order   []int
}

// SetOrder makes order the standing order: in rounds without Give and at instants
// without a round, each free slot goes to the first job of order that can start a
// task in its pool; jobs not in it get none. An empty order drops it.
func (d *Decision) SetOrder(order []int) {
	d.Order = append(make([]int, 0, len(order)), order...)
}

// Give gives count slots of pool to job this round (count ≤ 0 does nothing).
func (d *Decision) Give(job, pool, count int) {
	if count > 0 {
		d.Assign = append(d.Assign, protocol.Assignment{Job: job, Pool: pool, Count: count})
	}
}

// SetTarget sets job's container target in pool (kept by the engine until changed).
func (d *Decision) SetTarget(job, pool int, target float64) {
	d.Targets = append(d.Targets, protocol.Target{Job: job, Pool: pool, Target: target})
}

// Serve runs p on the protocol: messages from in, replies to out, until end (it
// answers bye and returns nil) or in closes (an error). A panic of the policy is
// reported to the engine as an error message, then re-raised. Messages are read and
// replies written without reflection (protocol.Message, protocol.AppendReply), so a
// round costs the policy's own work and little else.
func Serve(in io.Reader, out io.Writer, p Policy, opt Options) (err error) {
	rd := bufio.NewReaderSize(in, 1<<20)
	wr := bufio.NewWriter(out)
	var buf []byte
	send := func(r protocol.Reply) error {
		var aerr error
		if buf, aerr = protocol.AppendReply(buf[:0], r); aerr != nil {
			return aerr
		}
		if _, err := wr.Write(buf); err != nil {
			return err
		}
		return wr.Flush()
	}
	defer func() {
		if x := recover(); x != nil {
			_ = send(&protocol.Failure{Message: fmt.Sprint("policy panicked: ", x)})
			panic(x)
		}
	}()
	line, err := rd.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("reading hello: %w", err)
	}
	var h protocol.Hello
	if err := json.Unmarshal(line, &h); err != nil || h.Type != protocol.TypeHello {
		return fmt.Errorf("the first message is not a hello: %v", err)
	}
	s := newState(&h)
	if hl, ok := p.(Helloer); ok {
		if err := hl.OnHello(s); err != nil {
			return send(&protocol.Refuse{Reason: err.Error()})
		}
	}
	adm, admits := p.(Admitter)
	if err := send(&protocol.Ready{Protocol: protocol.Version, Admission: admits, Tick: opt.Tick, Conserving: opt.Conserving, Wake: opt.Wake, Events: opt.Events}); err != nil {
		return err
	}
	var m protocol.Message
	var dec protocol.Decision
	var long []byte
	for {
		line, err := rd.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) { // a line longer than the buffer
			long = append(long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = rd.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return errors.New("the engine closed the protocol before end")
			}
			return err
		}
		if err := m.Decode(line); err != nil {
			return fmt.Errorf("reading a message: %w", err)
		}
		s.Time = m.Time
		s.apply(m.Events)
		switch m.Type {
		case protocol.TypeAdmit:
			ok := adm != nil && adm.OnAdmit(s, m.Job)
			err = send(&protocol.Admission{Job: m.Job, Admit: ok})
		case protocol.TypeRound:
			s.Round = m.Round
			copy(s.Free, m.Free)
			for _, r := range m.Runnable {
				copy(s.runnable[r.Job], r.Tasks)
			}
			d := p.OnRound(s)
			dec = protocol.Decision{Round: m.Round, Assign: d.Assign, Targets: d.Targets, Order: d.Order}
			err = send(&dec)
		case protocol.TypeEnd:
			return send(&protocol.Bye{})
		default:
			return fmt.Errorf("unknown message type %q", m.Type)
		}
		if err != nil {
			return err
		}
	}
}

// giveInOrder gives each pool's free slots to the jobs of order that can use them,
// in that order: what a per-slot policy ranking jobs by order does.
func giveInOrder(s *State, order []int) Decision {
	var d Decision
	for p, free := range s.Free {
		for _, j := range order {
			if free == 0 {
				break
			}
			n := min(free, s.RunnableTasks(j, p))
			d.Give(j, p, n)
			free -= n
		}
	}
	return d
}

// FIFO gives free slots to the active jobs in arrival order: the built-in fifo. With
// Standing it answers with a standing order of every job by rank instead, which never
// changes: run it with the Standing options and it is asked once.
type FIFO struct{ Standing bool }

func (f FIFO) OnRound(s *State) Decision {
	if f.Standing {
		var d Decision
		d.Order = s.byRank()
		return d
	}
	return giveInOrder(s, s.Active())
}

// byRank is every job in rank order.
func (s *State) byRank() []int {
	order := make([]int, len(s.Hello.Workload.Jobs))
	for j := range order {
		order[j] = j
	}
	slices.SortFunc(order, func(a, b int) int { return s.Job(a).Rank - s.Job(b).Rank })
	return order
}

// EDF gives free slots to the active jobs by target time (deadline), ties in arrival
// order: the built-in edf (EDF-P). Target times do not change, so with Standing it
// answers with a standing order of every job by (target, rank) instead: run it with
// the Standing options and it is asked once.
type EDF struct {
	Standing bool
	order    []int
}

func (e *EDF) OnRound(s *State) Decision {
	if e.Standing {
		var d Decision
		d.Order = s.byRank()
		sortByTarget(s, d.Order)
		return d
	}
	e.order = append(e.order[:0], s.Active()...)
	sortByTarget(s, e.order)
	return giveInOrder(s, e.order)
}

// sortByTarget sorts jobs by target time, stably (ties keep their order).
func sortByTarget(s *State, jobs []int) {
	slices.SortStableFunc(jobs, func(a, b int) int {
		ta, tb := s.Target(a), s.Target(b)
		switch {
		case ta < tb:
			return -1
		case ta > tb:
			return 1
		}
		return 0
	})
}
