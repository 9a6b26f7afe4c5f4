package protocol

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/coraopt/coraopt/workload"
)

// Version is the protocol version this package speaks. A policy answers the hello with
// the version it speaks: Version or MinVersion; any other number ends the run
// (docs/protocol.md, "Versions").
const Version = 2

// MinVersion is the oldest version the engine still serves: version 2 only added
// optional members to replies (ready.wake, ready.events, decision.order), so a
// version-1 program, which sends none of them, reads and means the same.
const MinVersion = 1

// Message types, the "type" member of every message.
const (
	TypeHello     = "hello"     // engine → policy: the handshake
	TypeAdmit     = "admit"     // engine → policy: may this arriving job run?
	TypeRound     = "round"     // engine → policy: a decision round
	TypeEnd       = "end"       // engine → policy: the run is over
	TypeReady     = "ready"     // policy → engine: the answer to hello
	TypeRefuse    = "refuse"    // policy → engine: the answer to hello, cannot model the workload
	TypeAdmission = "admission" // policy → engine: the answer to admit
	TypeDecision  = "decision"  // policy → engine: the answer to round
	TypeBye       = "bye"       // policy → engine: the answer to end
	TypeError     = "error"     // policy → engine: instead of any answer, the policy gives up
)

// Event kinds, the "kind" member of an event.
const (
	KindStart      = "start"       // a task the previous decision started
	KindCapacity   = "capacity"    // a step of the capacity trace
	KindTaskFinish = "task_finish" // a task finished
	KindJobFinish  = "job_finish"  // a job's last task finished
	KindArrival    = "arrival"     // a job arrived (and was admitted)
	KindReject     = "reject"      // a job was rejected
	KindTick       = "tick"        // the policy's tick interval elapsed
)

// Kinds are the event kinds, in the order of the docs' table.
var Kinds = []string{KindStart, KindTaskFinish, KindJobFinish, KindArrival, KindReject, KindCapacity, KindTick}

// WakeKinds are the event kinds a policy may ask to be woken by (Ready.Wake): the
// others are its own doing (start) or wake it anyway (tick).
var WakeKinds = []string{KindTaskFinish, KindJobFinish, KindArrival, KindReject, KindCapacity}

// Hello is the engine's first message: the protocol version, the policy's name and
// parameters, and the workload as a non-clairvoyant policy may know it.
type Hello struct {
	Type     string         `json:"type"`
	Protocol int            `json:"protocol"`
	Policy   string         `json:"policy"`
	Params   map[string]any `json:"params"`
	Workload Workload       `json:"workload"`
}

// Workload is the static description of a workload: cluster and jobs, without true
// runtimes and without the future capacity trace.
type Workload struct {
	Name string `json:"name"`
	// TimeUnit is seconds per utility time unit.
	TimeUnit float64  `json:"time_unit"`
	Pools    []Pool   `json:"pools"`
	Workers  []Worker `json:"workers"`
	Jobs     []Job    `json:"jobs"`
}

// Pool is a pool of slots; Slots is its size (the capacity before any capacity event).
type Pool struct {
	Name  string `json:"name"`
	Slots int    `json:"slots"`
}

// Worker is one machine: its slots per pool (indexed like Workload.Pools) and speed.
type Worker struct {
	Slots []int   `json:"slots"`
	Speed float64 `json:"speed"`
}

// Job is what a policy may know about a job in advance (policies.JobInfo).
type Job struct {
	ID      string  `json:"id"`
	Arrival float64 `json:"arrival"`
	// Rank is the job's position in (arrival, id) order, the tie-break of the built-in
	// policies; arrivals come in this order.
	Rank     int     `json:"rank"`
	Priority float64 `json:"priority"`
	// Deadline is absolute (seconds); nil when the job has none.
	Deadline *float64 `json:"deadline"`
	// Target is policies.TargetTime: the deadline, else the time the utility names;
	// nil when there is none.
	Target *float64 `json:"target"`
	// Utility is the job's utility of its response time in time units, as the workload
	// file writes it ({"type": "sigmoid", …}).
	Utility   json.RawMessage     `json:"utility"`
	Workflow  string              `json:"workflow,omitempty"`
	After     []int               `json:"after,omitempty"`
	Estimates *workload.Estimates `json:"estimates,omitempty"`
	Stages    []Stage             `json:"stages"`
}

// Stage is a stage of a job: its pool, task count, slow start threshold and declared
// runtime distribution (nil when the workload gives explicit runtimes, which a policy
// does not see).
type Stage struct {
	Pool       int               `json:"pool"`
	Tasks      int               `json:"tasks"`
	StartAfter int               `json:"start_after"`
	Runtime    *workload.Runtime `json:"runtime"`
	Data       float64           `json:"data,omitempty"`
	TaskData   []float64         `json:"task_data,omitempty"`
}

// Admit asks whether an arriving job may run; Events are those since the previous
// message (the job's own arrival is not among them: it follows an admission).
type Admit struct {
	Type   string  `json:"type"`
	Time   float64 `json:"time"`
	Job    int     `json:"job"`
	Events []Event `json:"events"`
}

// Round is one decision round: the events since the previous message, the jobs whose
// runnable task counts changed, and the slots the engine will offer per pool.
type Round struct {
	Type     string     `json:"type"`
	Round    int        `json:"round"`
	Time     float64    `json:"time"`
	Events   []Event    `json:"events"`
	Runnable []Runnable `json:"runnable"`
	Free     []int      `json:"free"`
}

// Runnable is how many tasks a job can start now in each pool (indexed like
// Workload.Pools); zeros when it can start none any more.
type Runnable struct {
	Job   int   `json:"job"`
	Tasks []int `json:"tasks"`
}

// End closes a run that finished: the events since the previous message.
type End struct {
	Type   string  `json:"type"`
	Time   float64 `json:"time"`
	Events []Event `json:"events"`
}

// Event is one simulator event. Which members are meaningful depends on Kind
// (docs/protocol.md, "Events"); AppendJSON writes only those.
type Event struct {
	Kind   string  `json:"kind"`
	Time   float64 `json:"time"`
	Job    int     `json:"job"`
	Stage  int     `json:"stage"`
	Task   int     `json:"task"`
	Worker int     `json:"worker"`
	Pool   int     `json:"pool"`
	Slots  int     `json:"slots"`
	Start  float64 `json:"start"`
}

// AppendJSON appends the event as the protocol writes it: kind, time and the members
// of its kind.
func (e Event) AppendJSON(b []byte) []byte {
	b = append(b, `{"kind":"`...)
	b = append(b, e.Kind...)
	b = append(b, `","time":`...)
	b = AppendFloat(b, e.Time)
	field := func(name string, v int) {
		b = append(b, ',', '"')
		b = append(b, name...)
		b = append(b, '"', ':')
		b = strconv.AppendInt(b, int64(v), 10)
	}
	switch e.Kind {
	case KindStart, KindTaskFinish:
		field("job", e.Job)
		field("stage", e.Stage)
		field("task", e.Task)
		field("worker", e.Worker)
		field("pool", e.Pool)
		if e.Kind == KindTaskFinish {
			b = append(b, `,"start":`...)
			b = AppendFloat(b, e.Start)
		}
	case KindCapacity:
		field("pool", e.Pool)
		field("slots", e.Slots)
	case KindJobFinish, KindArrival, KindReject:
		field("job", e.Job)
	}
	return append(b, '}')
}

// MarshalJSON is AppendJSON.
func (e Event) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil), nil }

// AppendFloat appends x as a JSON number that reads back to the same float64.
func AppendFloat(b []byte, x float64) []byte {
	return strconv.AppendFloat(b, x, 'g', -1, 64)
}

// Reply is a message from the policy: *Ready, *Refuse, *Admission, *Decision, *Bye or
// *Failure.
type Reply interface {
	// MessageType is the reply's "type".
	MessageType() string
}

// Ready answers hello: the protocol version the policy speaks and the hooks it wants.
type Ready struct {
	Protocol int `json:"protocol"`
	// Admission asks for an admit message at every arrival.
	Admission bool `json:"admission,omitempty"`
	// Tick, when > 0, wakes the policy every Tick seconds from 0 while jobs remain: a
	// round happens at each (policies.Ticker).
	Tick float64 `json:"tick,omitempty"`
	// Conserving makes the container-assignment unit give a free slot to the largest
	// target − held gap even when no gap is positive (policies.ContainerAssignment).
	Conserving bool `json:"conserving,omitempty"`
	// Wake (protocol 2), when not nil, limits the rounds: after the first, the engine
	// sends a round only at an instant where a tick fell or an event of one of these
	// kinds (WakeKinds) happened since the last round; at the other instants it serves
	// the free slots by the standing order (Decision.Order) or the container targets.
	// Nil is a round at every instant where a free slot can be used (protocol 1).
	Wake []string `json:"wake,omitempty"`
	// Events (protocol 2), when not nil, are the only event kinds (Kinds) the engine
	// sends; nil is every kind.
	Events []string `json:"events,omitempty"`
}

// Refuse answers hello: the policy cannot model this workload (the run is reported as
// unsupported input, as for a built-in policy's Refuser).
type Refuse struct {
	Reason string `json:"reason"`
}

// Admission answers admit for the job asking.
type Admission struct {
	Job   int  `json:"job"`
	Admit bool `json:"admit"`
}

// Decision answers round: slots given to jobs this round, and container targets that
// persist until overwritten.
type Decision struct {
	Round   int          `json:"round"`
	Assign  []Assignment `json:"assign,omitempty"`
	Targets []Target     `json:"targets,omitempty"`
	// Order (protocol 2), when not nil, replaces the standing order: from this round
	// on, in a round whose decision has no Assign and at every instant the engine
	// does not ask, each free slot goes to the first job of the order that can start
	// a task in its pool (what the built-in fifo and edf do with their orders). Jobs
	// not in it get none; an empty order drops it (the container targets serve again).
	Order []int `json:"order,omitempty"`
}

// Assignment gives Count slots of Pool to Job this round; on Worker's slots only when
// Worker is set, else on any of the pool's free slots.
type Assignment struct {
	Job    int  `json:"job"`
	Pool   int  `json:"pool"`
	Count  int  `json:"count"`
	Worker *int `json:"worker,omitempty"`
}

// Target is Job's container target in Pool (policies.ContainerAssignment.Targets).
type Target struct {
	Job    int     `json:"job"`
	Pool   int     `json:"pool"`
	Target float64 `json:"target"`
}

// Bye answers end: the policy's own counts (policy_counts in the output) and how
// often it fell back to a previous decision (fallbacks).
type Bye struct {
	Counts    map[string]int `json:"counts,omitempty"`
	Fallbacks int            `json:"fallbacks,omitempty"`
}

// Failure is the policy giving up: its message ends the run.
type Failure struct {
	Message string `json:"message"`
}

func (*Ready) MessageType() string     { return TypeReady }
func (*Refuse) MessageType() string    { return TypeRefuse }
func (*Admission) MessageType() string { return TypeAdmission }
func (*Decision) MessageType() string  { return TypeDecision }
func (*Bye) MessageType() string       { return TypeBye }
func (*Failure) MessageType() string   { return TypeError }

// Encode writes a reply as one line of the protocol (with its "type" and a final
// newline).
func Encode(r Reply) ([]byte, error) { return AppendReply(nil, r) }

// AppendReply appends a reply as one line of the protocol (with its "type" and a
// final newline) to b. Ready, Admission and Decision, the replies of every run, are
// written by hand, without reflection or allocation; an empty non-nil Wake, Events
// or Order is written ([] means something else than absent).
func AppendReply(b []byte, r Reply) ([]byte, error) {
	b = append(b, `{"type":"`...)
	b = append(b, r.MessageType()...)
	b = append(b, '"')
	switch m := r.(type) {
	case *Decision:
		b = append(b, `,"round":`...)
		b = strconv.AppendInt(b, int64(m.Round), 10)
		if len(m.Assign) > 0 {
			b = append(b, `,"assign":[`...)
			for i, a := range m.Assign {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"job":`...)
				b = strconv.AppendInt(b, int64(a.Job), 10)
				b = append(b, `,"pool":`...)
				b = strconv.AppendInt(b, int64(a.Pool), 10)
				b = append(b, `,"count":`...)
				b = strconv.AppendInt(b, int64(a.Count), 10)
				if a.Worker != nil {
					b = append(b, `,"worker":`...)
					b = strconv.AppendInt(b, int64(*a.Worker), 10)
				}
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		if len(m.Targets) > 0 {
			b = append(b, `,"targets":[`...)
			for i, t := range m.Targets {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"job":`...)
				b = strconv.AppendInt(b, int64(t.Job), 10)
				b = append(b, `,"pool":`...)
				b = strconv.AppendInt(b, int64(t.Pool), 10)
				b = append(b, `,"target":`...)
				if math.IsInf(t.Target, 0) || math.IsNaN(t.Target) {
					return nil, fmt.Errorf("targets[%d].target: %g is not a JSON number", i, t.Target)
				}
				b = AppendFloat(b, t.Target)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		if m.Order != nil {
			b = appendInts(append(b, `,"order":`...), m.Order)
		}
	case *Admission:
		b = append(b, `,"job":`...)
		b = strconv.AppendInt(b, int64(m.Job), 10)
		b = strconv.AppendBool(append(b, `,"admit":`...), m.Admit)
	case *Ready:
		b = append(b, `,"protocol":`...)
		b = strconv.AppendInt(b, int64(m.Protocol), 10)
		if m.Admission {
			b = append(b, `,"admission":true`...)
		}
		if m.Tick != 0 {
			if math.IsInf(m.Tick, 0) || math.IsNaN(m.Tick) {
				return nil, fmt.Errorf("tick: %g is not a JSON number", m.Tick)
			}
			b = AppendFloat(append(b, `,"tick":`...), m.Tick)
		}
		if m.Conserving {
			b = append(b, `,"conserving":true`...)
		}
		if m.Wake != nil {
			b = appendKinds(append(b, `,"wake":`...), m.Wake)
		}
		if m.Events != nil {
			b = appendKinds(append(b, `,"events":`...), m.Events)
		}
	default:
		data, err := json.Marshal(r)
		if err != nil {
			return nil, err
		}
		if len(data) > 2 {
			b = append(b, ',')
		}
		b = append(b, data[1:len(data)-1]...)
	}
	return append(b, '}', '\n'), nil
}

func appendInts(b []byte, xs []int) []byte {
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

// appendKinds writes event kinds; a kind that needs escaping is not one (the
// decoder refuses it), so it is quoted the JSON way to keep the line valid.
func appendKinds(b []byte, ks []string) []byte {
	b = append(b, '[')
	for i, k := range ks {
		if i > 0 {
			b = append(b, ',')
		}
		q, _ := json.Marshal(k)
		b = append(b, q...)
	}
	return append(b, ']')
}
