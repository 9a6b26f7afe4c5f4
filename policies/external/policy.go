package external

import (
	"context"
	"fmt"
	"strconv"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/external/protocol"
)

// policy is a session as the engine sees it. Every external policy is a Rounder (the
// round exchange), an Observer (the events it reports), a Refuser (a refuse at hello),
// an Aborter (a broken exchange ends the run), a FallbackCounter and a Counter (the
// bye's figures); admitting and ticking add Admitter and Ticker when the program asked
// for them in ready, so the engine calls only what the program wants.
type policy struct{ s *Session }

func (p *policy) Name() string { return p.s.cmd.Name }

// StartRound sends a round and takes its decision. An instant where no active job can
// start a task on a free slot, and no tick fell, has nothing to decide — whatever the
// program answered, no task would start: no round is sent, and its events go with the
// next message. A program that limited its rounds (ready.wake) is asked only at the
// first instant and after a tick or an event it wakes on; at the other instants the
// standing order (or the container targets) serves the slots.
func (p *policy) StartRound(_ context.Context, v policies.View) {
	s := p.s
	s.assign, s.serve = s.assign[:0], serveNothing
	if s.failed != nil || s.refused != nil {
		return
	}
	if !s.ticked && !anyUsable(v) {
		return
	}
	if s.limited && s.round > 0 && !s.ticked && !s.woken {
		s.serve = serveStanding
		return
	}
	s.ticked, s.woken = false, false
	line := s.roundMessage(v)
	at := "round " + strconv.Itoa(s.round)
	r := s.exchange(at, line)
	if r == nil {
		return
	}
	d, ok := r.(*protocol.Decision)
	if !ok {
		s.fail(at, unexpected(r, protocol.TypeDecision))
		return
	}
	if err := s.check(v, d); err != nil {
		s.fail(at, err)
		return
	}
	s.apply(v, d)
}

// anyUsable reports whether some pool has a free slot that some active job can use.
func anyUsable(v policies.View) bool {
	for p := range v.Pools() {
		if free(v, p) == 0 {
			continue
		}
		for _, j := range v.Active() {
			if v.Runnable(j, p) {
				return true
			}
		}
	}
	return false
}

func (p *policy) Pick(v policies.View, sl policies.Slot) (int, bool) {
	if p.s.failed != nil || p.s.refused != nil {
		return 0, false
	}
	return p.s.pick(v, sl)
}

func (p *policy) Observe(v policies.View, e policies.Event) { p.s.observe(v, e) }

// Err is the program's refuse reason (policies.Refuser).
func (p *policy) Err() error { return p.s.refused }

// Aborted is why the run cannot go on: the session failed, or the program refused
// the workload (then Err says why and the run is reported as unsupported).
func (p *policy) Aborted() error {
	if p.s.failed != nil {
		return p.s.failed
	}
	return p.s.refused
}

// Fallbacks and Counts are the bye's; the first of them ends the exchange (finish).
func (p *policy) Fallbacks() int {
	p.s.finish()
	if p.s.bye == nil {
		return 0
	}
	return p.s.bye.Fallbacks
}

func (p *policy) Counts() map[string]int {
	p.s.finish()
	if p.s.bye == nil {
		return nil
	}
	return p.s.bye.Counts
}

// admit asks the program whether job j may run.
func (p *policy) admit(v policies.View, j int) bool {
	s := p.s
	if s.failed != nil || s.refused != nil {
		return false
	}
	s.now = v.Now()
	at := fmt.Sprintf("admit job %d", j)
	r := s.exchange(at, s.admitMessage(j))
	if r == nil {
		return false
	}
	a, ok := r.(*protocol.Admission)
	switch {
	case !ok:
		s.fail(at, unexpected(r, protocol.TypeAdmission))
	case a.Job != j:
		s.fail(at, &protocol.FieldError{Path: "job", Msg: fmt.Sprintf("admits job %d, but job %d is the one asking", a.Job, j)})
	default:
		return a.Admit
	}
	return false
}

type admitting struct{ *policy }

func (p *admitting) Admit(v policies.View, j int) bool { return p.admit(v, j) }

type ticking struct{ *policy }

func (p *ticking) Interval() float64 { return p.s.ready.Tick }

func (p *ticking) Tick(context.Context, policies.View) { p.s.ticked = true }

type admittingTicking struct{ *policy }

func (p *admittingTicking) Admit(v policies.View, j int) bool { return p.admit(v, j) }

func (p *admittingTicking) Interval() float64 { return p.s.ready.Tick }

func (p *admittingTicking) Tick(context.Context, policies.View) { p.s.ticked = true }

// session is the policy's session (for tests and benchmarks that count rounds).
func (p *policy) session() *Session { return p.s }
