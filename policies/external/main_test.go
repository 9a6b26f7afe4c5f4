package external

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"runtime/pprof"
	"slices"
	"testing"
	"time"

	"github.com/coraopt/coraopt/policies/external/client"
	"github.com/coraopt/coraopt/policies/external/protocol"
)

// childEnv makes the test binary a policy program: the value names its behaviour.
const childEnv = "CORAOPT_EXTERNAL_TEST_CHILD"

// logEnv, when set in a child, names a file the child appends every line it reads and
// writes to (the schema test checks them).
const logEnv = "CORAOPT_EXTERNAL_TEST_LOG"

// profileEnv, when set in a child of the Go client's modes, names the file prefix of
// its CPU profile (PREFIX.PID).
const profileEnv = "CORAOPT_EXTERNAL_TEST_CPUPROFILE"

func TestMain(m *testing.M) {
	if mode := os.Getenv(childEnv); mode != "" {
		os.Exit(child(mode))
	}
	os.Exit(m.Run())
}

// self is the Command that runs this test binary as a policy program in mode.
func self(t testing.TB, name, mode string) Command {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Command{Name: name, Argv: []string{exe, "-test.run=^$"}, Env: []string{childEnv + "=" + mode}}
}

func child(mode string) int {
	var p client.Policy
	var opt client.Options
	switch mode {
	case "fifo":
		p = client.FIFO{}
	case "edf":
		p = &client.EDF{}
	case "fifo-standing":
		p, opt = client.FIFO{Standing: true}, client.Standing()
	case "edf-standing":
		p, opt = &client.EDF{Standing: true}, client.Standing()
	case "edf-arrivals":
		p = &edfArrivals{}
		opt = client.Options{Wake: []string{protocol.KindArrival}, Events: []string{protocol.KindArrival, protocol.KindJobFinish, protocol.KindReject}}
	}
	if p != nil {
		if path := os.Getenv(profileEnv); path != "" {
			// A child's profile, for the benchmark's other half (go test -cpuprofile
			// sees only the engine).
			f, err := os.Create(fmt.Sprintf("%s.%d", path, os.Getpid()))
			if err == nil && pprof.StartCPUProfile(f) == nil {
				defer pprof.StopCPUProfile()
			}
		}
		in, out := logged(os.Stdin, os.Stdout)
		if err := client.Serve(in, out, p, opt); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	}
	if mode == "echo" {
		// The pipe's floor: ready, then one short line back per line read, no JSON.
		rd := bufio.NewReader(os.Stdin)
		if _, err := rd.ReadBytes('\n'); err != nil {
			return 1
		}
		os.Stdout.WriteString(`{"type":"ready","protocol":2}` + "\n")
		reply := []byte(`{"type":"bye"}` + "\n")
		for {
			line, err := rd.ReadSlice('\n')
			if err != nil {
				return 0
			}
			if string(line) == "end\n" {
				return 0
			}
			os.Stdout.Write(reply)
		}
	}
	if mode == "admit-tick" {
		in, out := logged(os.Stdin, os.Stdout)
		if err := client.Serve(in, out, &admitTick{}, client.Options{Tick: 7, Conserving: true}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	}
	return misbehave(mode)
}

// admitTick rejects every third arriving job and steers by container targets: every
// message kind and event kind of the protocol occurs in its runs.
type admitTick struct{}

func (*admitTick) OnAdmit(_ *client.State, job int) bool { return job%3 != 1 }

func (*admitTick) OnRound(s *client.State) client.Decision {
	var d client.Decision
	for _, j := range s.Active() {
		for p := range s.Free {
			d.SetTarget(j, p, float64(1+j%2))
		}
	}
	return d
}

// edfArrivals is EDF as a researcher would write it on protocol 2: at each arrival (its
// only wake-up) a standing order of the active jobs by target, and only the events
// that keep the active list (it fails on any other, which the engine must not send).
type edfArrivals struct{ edf client.EDF }

func (e *edfArrivals) OnRound(s *client.State) client.Decision {
	for _, ev := range s.Events {
		if ev.Kind != protocol.KindArrival && ev.Kind != protocol.KindJobFinish && ev.Kind != protocol.KindReject {
			panic("the engine sent a " + ev.Kind + " event, not asked for")
		}
	}
	var d client.Decision
	d.SetOrder(s.Active())
	slices.SortStableFunc(d.Order, func(a, b int) int { return cmp.Compare(s.Target(a), s.Target(b)) })
	return d
}

// misbehave is a program that breaks the protocol as mode says, at round 2 (or at the
// first admit, or the end): the cases of issue 30's list.
func misbehave(mode string) int {
	rd := bufio.NewReader(os.Stdin)
	say := func(s string) { os.Stdout.WriteString(s + "\n") }
	fmt.Fprintln(os.Stderr, "misbehaving:", mode)
	if _, err := rd.ReadBytes('\n'); err != nil {
		return 1
	}
	switch mode {
	case "early-exit":
		return 0
	case "version":
		say(`{"type":"ready","protocol":3}`)
	case "wake-v1":
		say(`{"type":"ready","protocol":1,"wake":[]}`)
	case "order-twice", "order-unknown":
		say(`{"type":"ready","protocol":2}`)
	case "refuse":
		say(`{"type":"refuse","reason":"no deadlines here"}`)
	case "bad-admission", "admission-garbage":
		say(`{"type":"ready","protocol":1,"admission":true}`)
	default:
		say(`{"type":"ready","protocol":1}`)
	}
	for {
		line, err := rd.ReadBytes('\n')
		if err != nil {
			return 0
		}
		var m struct {
			Type  string
			Round int
			Job   int
		}
		json.Unmarshal(line, &m)
		switch m.Type {
		case "admit":
			switch mode {
			case "bad-admission":
				say(fmt.Sprintf(`{"type":"admission","job":%d,"admit":true}`, m.Job+1))
			case "admission-garbage":
				say(fmt.Sprintf(`{"type":"admission","job":%d,"admit":"yes"}`, m.Job))
			default:
				say(fmt.Sprintf(`{"type":"admission","job":%d,"admit":true}`, m.Job))
			}
			continue
		case "end":
			if mode == "no-bye" {
				return 0
			}
			say(`{"type":"bye"}`)
			continue
		}
		if mode == "targets" {
			say(fmt.Sprintf(`{"type":"decision","round":%d,"targets":[{"job":0,"pool":0,"target":1},{"job":1,"pool":0,"target":3},{"job":2,"pool":0,"target":1}]}`, m.Round))
			continue
		}
		if m.Round < 2 {
			say(fmt.Sprintf(`{"type":"decision","round":%d,"assign":[{"job":0,"pool":0,"count":1}]}`, m.Round))
			continue
		}
		switch mode {
		case "malformed":
			say(`{"type":"decision","round":`)
		case "unknown-job":
			say(fmt.Sprintf(`{"type":"decision","round":%d,"assign":[{"job":99,"pool":0}]}`, m.Round))
		case "twice":
			say(fmt.Sprintf(`{"type":"decision","round":%d,"assign":[{"job":1,"pool":0,"worker":1},{"job":2,"pool":0,"worker":1}]}`, m.Round))
		case "more-than-free":
			say(fmt.Sprintf(`{"type":"decision","round":%d,"assign":[{"job":1,"pool":0,"count":2},{"job":2,"pool":0,"count":2}]}`, m.Round))
		case "order-v1":
			say(fmt.Sprintf(`{"type":"decision","round":%d,"order":[0]}`, m.Round))
		case "order-twice":
			say(fmt.Sprintf(`{"type":"decision","round":%d,"order":[2,0,2]}`, m.Round))
		case "order-unknown":
			say(fmt.Sprintf(`{"type":"decision","round":%d,"order":[0,3]}`, m.Round))
		case "wrong-round":
			say(fmt.Sprintf(`{"type":"decision","round":%d}`, m.Round+1))
		case "wrong-type":
			say(`{"type":"bye"}`)
		case "error":
			say(`{"type":"error","message":"out of ideas"}`)
		case "crash":
			os.Stdout.WriteString(`{"type":"deci`)
			os.Exit(3)
		case "silence":
			time.Sleep(time.Hour)
		case "close-stdout":
			os.Stdout.Close()
			time.Sleep(time.Hour)
		default: // the well-behaved rest of a run: FIFO-ish, one job at a time
			say(fmt.Sprintf(`{"type":"decision","round":%d,"targets":[{"job":0,"pool":0,"target":2},{"job":1,"pool":0,"target":2},{"job":2,"pool":0,"target":2}]}`, m.Round))
		}
	}
}

// logged tees the child's protocol lines into the file logEnv names.
func logged(in *os.File, out *os.File) (*teeReader, *teeWriter) {
	path := os.Getenv(logEnv)
	var f *os.File
	if path != "" {
		f, _ = os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	}
	return &teeReader{in, f}, &teeWriter{out, f}
}

type teeReader struct {
	r   *os.File
	log *os.File
}

func (t *teeReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if t.log != nil && n > 0 {
		t.log.Write(p[:n])
	}
	return n, err
}

type teeWriter struct {
	w   *os.File
	log *os.File
}

func (t *teeWriter) Write(p []byte) (int, error) {
	if t.log != nil {
		t.log.Write(p)
	}
	return t.w.Write(p)
}

var _ = protocol.Version
