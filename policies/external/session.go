package external

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/external/protocol"
	"github.com/coraopt/coraopt/workload"
)

// ExitGrace is how long Close waits for the program to exit on its own (after bye, or
// after its standard input is closed) before it kills it.
const ExitGrace = 2 * time.Second

// Options are a session's settings beyond its Command.
type Options struct {
	// Stderr receives the program's standard error, each line prefixed "[Prefix] ";
	// nil discards it. Sessions running at once may share it: lines are written whole,
	// one Write each, so it must be safe for concurrent use (SyncWriter).
	Stderr io.Writer
	// Prefix labels the program's lines on Stderr; empty is the command's Name.
	Prefix string
}

// Error is an external policy that broke the protocol, failed or fell silent. It
// names where: the round and simulated time (or the handshake, an admission, the
// end), and what: a reply's field, the program's exit, a timeout.
type Error struct {
	// At says where the exchange was: "hello", "admit job 3", "round 17", "end".
	At   string
	Time float64
	Err  error
}

func (e *Error) Error() string {
	if e.At == protocol.TypeHello {
		return fmt.Sprintf("handshake: %v", e.Err)
	}
	return fmt.Sprintf("%s (t=%s s): %v", e.At, strconv.FormatFloat(e.Time, 'g', -1, 64), e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Session is one run of an external policy: the program, started for one simulation,
// and the protocol's state. Its Policy is what sim.Run runs; Close ends the program.
type Session struct {
	cmd   Command
	proc  *exec.Cmd
	in    *os.File // the program's standard input
	out   *os.File // the program's standard output
	rd    *bufio.Reader
	ready protocol.Ready

	exited  chan struct{} // closed when the program has exited and been reaped
	waitErr error         // its exit status, once exited is closed
	stop    func() bool   // unregisters the context's callback

	mu       sync.Mutex // guards cancelled, against the context's callback
	canceled bool
	blocking bool // replies are read by blocking system calls (no timeout)

	refused error // the policy's refuse reason
	ticked  bool  // a tick happened since the last round: the next instant sends one
	failed  error // *Error: the session cannot go on
	closed  bool
	bye     *protocol.Bye

	*state
}

// Start runs the program of c, sends it hello with w's static description and reads
// its ready. The returned session's Policy has exactly the hooks the program asked
// for. A program that refuses the workload gives a session whose policy reports it
// (policies.Refuser) and ends the run at once; any other failure to start or to
// answer is an *Error, and the program has been stopped. Cancelling ctx interrupts a
// wait for a reply.
func Start(ctx context.Context, c Command, w *workload.Workload, opt Options) (*Session, error) {
	if len(c.Argv) == 0 {
		return nil, fmt.Errorf("external policy %s: no program to run", c.Name)
	}
	hello, infos, err := helloOf(c, w)
	if err != nil {
		return nil, err
	}
	s := &Session{cmd: c, exited: make(chan struct{}), state: newState(w, infos)}
	if err := s.spawn(opt); err != nil {
		return nil, err
	}
	s.stop = context.AfterFunc(ctx, s.interrupt)
	line, err := encodeHello(hello)
	if err == nil {
		err = s.send(line)
	}
	var reply protocol.Reply
	if err == nil {
		reply, err = s.receive()
	}
	if err == nil {
		switch r := reply.(type) {
		case *protocol.Ready:
			err = s.setReady(r)
		case *protocol.Refuse:
			s.refused = errors.New(r.Reason)
		default:
			err = unexpected(reply, protocol.TypeReady)
		}
	}
	if err != nil {
		s.failed = &Error{At: protocol.TypeHello, Err: err}
		s.Close()
		return nil, s.failed
	}
	s.ca = &policies.ContainerAssignment{Conserving: s.ready.Conserving}
	return s, nil
}

// setReady takes the program's ready: its version (this engine speaks 1 and 2; the
// members protocol 2 added need 2) and the hooks, events and wake-ups it wants.
func (s *Session) setReady(r *protocol.Ready) error {
	switch {
	case r.Protocol != protocol.Version && r.Protocol != protocol.MinVersion:
		return &protocol.FieldError{Path: "protocol", Msg: fmt.Sprintf("the program speaks protocol %d; this engine speaks %d to %d", r.Protocol, protocol.MinVersion, protocol.Version)}
	case r.Protocol < 2 && r.Wake != nil:
		return &protocol.FieldError{Path: "wake", Msg: "needs protocol 2 (the program answered protocol 1)"}
	case r.Protocol < 2 && r.Events != nil:
		return &protocol.FieldError{Path: "events", Msg: "needs protocol 2 (the program answered protocol 1)"}
	}
	s.ready, s.protocol = *r, r.Protocol
	s.sendKinds = allKinds
	if r.Events != nil {
		s.sendKinds = kindMask(r.Events)
	}
	if r.Wake != nil {
		s.limited, s.wakeKinds = true, kindMask(r.Wake)
	}
	return nil
}

// spawn starts the program with its standard input and output on pipes of ours, in a
// process group of its own (so Ctrl-C reaches only coraopt, which then stops it).
func (s *Session) spawn(opt Options) error {
	c := s.cmd
	inR, inW, err := os.Pipe()
	if err != nil {
		return err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return err
	}
	p := exec.Command(c.Argv[0], c.Argv[1:]...)
	p.Dir = c.Dir
	if len(c.Env) > 0 {
		p.Env = append(os.Environ(), c.Env...)
	}
	p.Stdin, p.Stdout = inR, outW
	if opt.Stderr != nil {
		prefix := opt.Prefix
		if prefix == "" {
			prefix = c.Name
		}
		p.Stderr = &prefixWriter{to: opt.Stderr, prefix: "[" + prefix + "] "}
	}
	p.WaitDelay = ExitGrace // a grandchild holding the stderr pipe open does not hold us
	ownGroup(p)
	err = p.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return &Error{At: protocol.TypeHello, Err: fmt.Errorf("starting %s: %w", c.Argv[0], err)}
	}
	s.proc, s.in, s.out = p, inW, outR
	if c.Timeout == 0 {
		// Without a timeout, read the program's replies with blocking system calls
		// rather than through the runtime's poller: the reader sleeps in read and the
		// program's write wakes it directly, without the failed read, the epoll wait
		// and the goroutine hand-over of every round (about half the wall time of a
		// round trip on a loaded machine, by pipe-floor in BenchmarkExternalPolicy). A
		// blocked read then no longer obeys deadlines, so interrupt ends it by killing
		// the program, which closes the pipe's only write end.
		_ = outR.Fd() // Fd puts the descriptor in blocking mode
		s.blocking = true
	}
	s.rd = bufio.NewReaderSize(outR, 64<<10)
	go func() {
		s.waitErr = p.Wait()
		if pw, ok := p.Stderr.(*prefixWriter); ok {
			pw.flush()
		}
		close(s.exited)
	}()
	return nil
}

// interrupt wakes a blocked read or write when the run's context ends.
func (s *Session) interrupt() {
	s.mu.Lock()
	s.canceled = true
	s.mu.Unlock()
	past := time.Unix(1, 0)
	s.in.SetWriteDeadline(past)
	s.out.SetReadDeadline(past)
	if s.blocking {
		select {
		case <-s.exited:
		default:
			killGroup(s.proc)
		}
	}
}

func (s *Session) interrupted() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.canceled
}

// errInterrupted is a wait the run's context ended: not the program's fault.
var errInterrupted = errors.New("interrupted")

// send writes one message line.
func (s *Session) send(line []byte) error {
	if s.cmd.Timeout > 0 && !s.interrupted() {
		s.in.SetWriteDeadline(time.Now().Add(s.cmd.Timeout))
	}
	if _, err := s.in.Write(line); err != nil {
		return s.ioProblem("writing to the program", err)
	}
	return nil
}

// receive reads and decodes one reply line; an error message from the program is an
// error.
func (s *Session) receive() (protocol.Reply, error) {
	if s.cmd.Timeout > 0 && !s.interrupted() {
		s.out.SetReadDeadline(time.Now().Add(s.cmd.Timeout))
	}
	line, err := s.readLine()
	if err != nil {
		return nil, err
	}
	r, err := protocol.DecodeReply(line)
	if err != nil {
		return nil, err
	}
	if f, ok := r.(*protocol.Failure); ok {
		return nil, fmt.Errorf("the program reported an error: %s", f.Message)
	}
	return r, nil
}

// readLine reads up to the next newline, at most protocol.MaxReplyBytes.
func (s *Session) readLine() ([]byte, error) {
	line, err := s.rd.ReadSlice('\n')
	if err == nil {
		return line[:len(line)-1], nil
	}
	if !errors.Is(err, bufio.ErrBufferFull) {
		return nil, s.ioProblem("reading from the program", err)
	}
	buf := bytes.Clone(line)
	for {
		line, err = s.rd.ReadSlice('\n')
		buf = append(buf, line...)
		if len(buf) > protocol.MaxReplyBytes+1 {
			return nil, &protocol.FieldError{Msg: fmt.Sprintf("reply line longer than %d bytes", protocol.MaxReplyBytes)}
		}
		switch {
		case err == nil:
			return buf[:len(buf)-1], nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return nil, s.ioProblem("reading from the program", err)
		}
	}
}

// ioProblem turns a failed read or write into what happened to the program: the
// run's context ended, the timeout passed, or it exited or closed its end.
func (s *Session) ioProblem(doing string, err error) error {
	if s.interrupted() {
		return errInterrupted
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return fmt.Errorf("no answer within the timeout of %v", s.cmd.Timeout)
	}
	select {
	case <-s.exited:
		return fmt.Errorf("the program exited (%s) while %s", exitStatus(s.waitErr), doing)
	case <-time.After(ExitGrace):
	}
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("the program closed its standard output (it still runs; stopped)")
	}
	return fmt.Errorf("%s: %w", doing, err)
}

func exitStatus(err error) string {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return "status 0"
	case errors.As(err, &ee) && ee.Exited():
		return fmt.Sprintf("status %d", ee.ExitCode())
	case errors.As(err, &ee):
		return ee.ProcessState.String() // "signal: killed"
	}
	return err.Error()
}

func unexpected(r protocol.Reply, want string) error {
	return &protocol.FieldError{Path: "type", Msg: fmt.Sprintf("got %q, want %q", r.MessageType(), want)}
}

// fail records the session's first failure, at the exchange named by at.
func (s *Session) fail(at string, err error) {
	if s.failed != nil {
		return
	}
	if errors.Is(err, errInterrupted) {
		err = context.Canceled
	}
	s.failed = &Error{At: at, Time: s.now, Err: err}
}

// exchange sends a message and reads its reply, as the exchange named by at.
func (s *Session) exchange(at string, line []byte) protocol.Reply {
	if s.failed != nil || s.refused != nil {
		return nil
	}
	err := s.send(line)
	var r protocol.Reply
	if err == nil {
		r, err = s.receive()
	}
	if err != nil {
		s.fail(at, err)
		return nil
	}
	return r
}

// Policy is the session's policies.Policy, with the hooks the program asked for in
// ready: Admitter when it asked for admission, Ticker when it gave a tick interval.
func (s *Session) Policy() policies.Policy {
	p := &policy{s}
	switch {
	case s.ready.Admission && s.ready.Tick > 0:
		return &admittingTicking{p}
	case s.ready.Admission:
		return &admitting{p}
	case s.ready.Tick > 0:
		return &ticking{p}
	}
	return p
}

// Rounds is how many rounds the session has sent.
func (s *Session) Rounds() int { return s.round }

// finish sends end and reads bye once the run is complete (every job finished or
// rejected), as the first of Fallbacks, Counts and Close asks.
func (s *Session) finish() {
	if s.bye != nil || s.failed != nil || s.refused != nil || s.settled < len(s.infos) {
		return
	}
	r := s.exchange(protocol.TypeEnd, s.endMessage())
	switch b := r.(type) {
	case nil:
	case *protocol.Bye:
		s.bye = b
	default:
		s.fail(protocol.TypeEnd, unexpected(r, protocol.TypeBye))
	}
}

// Close ends the program: after a complete run it exchanges end and bye, then closes
// the program's standard input and waits up to ExitGrace for it to exit; a program
// that failed, or does not exit, is killed (with its process group). The program is
// reaped either way. Close reports what went wrong at the end: no bye, or an exit
// status other than 0 after bye. Closing twice does nothing.
func (s *Session) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	if s.proc == nil {
		return nil
	}
	s.finish()
	ok := s.failed == nil
	s.in.Close()
	var err error
	if fe, _ := s.failed.(*Error); fe != nil && fe.At == protocol.TypeEnd {
		err = fe // the end exchange failed; a failure before it ended the run already
	}
	if ok {
		select {
		case <-s.exited:
		case <-time.After(ExitGrace):
			err = &Error{At: protocol.TypeEnd, Time: s.now, Err: fmt.Errorf("the program did not exit within %v of the end (stopped)", ExitGrace)}
		}
	}
	select {
	case <-s.exited:
	default:
		killGroup(s.proc)
		<-s.exited
	}
	if s.stop != nil {
		s.stop()
	}
	s.out.Close()
	if err == nil && ok && s.bye != nil && s.waitErr != nil {
		err = &Error{At: protocol.TypeEnd, Time: s.now, Err: fmt.Errorf("the program exited with %s after bye", exitStatus(s.waitErr))}
	}
	return err
}

// helloOf is the hello message of c on w, and the job descriptions it holds.
func helloOf(c Command, w *workload.Workload) (*protocol.Hello, []policies.JobInfo, error) {
	infos := policies.JobInfos(w)
	desc, err := describe(w, infos)
	if err != nil {
		return nil, nil, fmt.Errorf("external policy %s: %w", c.Name, err)
	}
	params := c.Params
	if params == nil {
		params = map[string]any{}
	}
	return &protocol.Hello{Type: protocol.TypeHello, Protocol: protocol.Version, Policy: c.Name, Params: params, Workload: *desc}, infos, nil
}

func finite(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	return &x
}
