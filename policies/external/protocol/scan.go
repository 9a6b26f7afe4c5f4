package protocol

import (
	"encoding/json"
	"math"
	"strconv"
)

// scanner reads the JSON the protocol's messages are written in — objects with
// plain keys, integers, numbers, short strings without escapes, arrays — straight
// into Go values, without reflection or allocation. It is the fast path of the
// decoders: anything it does not read exactly as encoding/json would (an escape, a
// fraction in an integer, a duplicate or unknown key, a syntax error) makes it give
// up, and the caller falls back to encoding/json, which reads it or says what is
// wrong.
type scanner struct {
	b  []byte
	i  int
	ok bool
}

func (s *scanner) fail() { s.ok = false }

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// lit consumes c after blanks.
func (s *scanner) lit(c byte) bool {
	s.ws()
	if s.ok && s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// peek is the next byte after blanks, 0 at the end.
func (s *scanner) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// str reads a string of printable ASCII without escapes, as a slice of the line.
func (s *scanner) str() []byte {
	if !s.lit('"') {
		s.fail()
		return nil
	}
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			return s.b[start : s.i-1]
		case c == '\\' || c < 0x20 || c >= 0x7f:
			s.fail()
			return nil
		}
		s.i++
	}
	s.fail()
	return nil
}

// number reads a JSON number token (RFC 8259 grammar) and returns its bytes, and
// whether it is a plain integer (no fraction, no exponent, no "-0").
func (s *scanner) number() ([]byte, bool) {
	s.ws()
	start := s.i
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	digits := s.i
	switch {
	case s.i < len(s.b) && s.b[s.i] == '0':
		s.i++
	case s.i < len(s.b) && s.b[s.i] >= '1' && s.b[s.i] <= '9':
		for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
			s.i++
		}
	default:
		s.fail()
		return nil, false
	}
	integer := !(s.b[start] == '-' && s.i-digits == 1 && s.b[digits] == '0')
	if s.i < len(s.b) && s.b[s.i] == '.' {
		integer = false
		s.i++
		if !s.digits() {
			return nil, false
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		integer = false
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if !s.digits() {
			return nil, false
		}
	}
	return s.b[start:s.i], integer
}

func (s *scanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	if s.i == start {
		s.fail()
		return false
	}
	return true
}

// integer reads an integer in [lo, hi]; anything else gives up (the slow path then
// reads 3.0 as 3, or names the range).
func (s *scanner) integer(lo, hi int64) int {
	tok, integer := s.number()
	if !s.ok {
		return 0
	}
	if !integer || len(tok) > 18 {
		s.fail()
		return 0
	}
	var n int64
	neg := tok[0] == '-'
	if neg {
		tok = tok[1:]
	}
	for _, c := range tok {
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	if n < lo || n > hi {
		s.fail()
		return 0
	}
	return int(n)
}

// float reads a finite number.
func (s *scanner) float() float64 {
	tok, _ := s.number()
	if !s.ok {
		return 0
	}
	x, err := strconv.ParseFloat(string(tok), 64)
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		s.fail()
		return 0
	}
	return x
}

// boolean reads true or false.
func (s *scanner) boolean() bool {
	s.ws()
	switch {
	case hasPrefixAt(s.b, s.i, "true"):
		s.i += 4
		return true
	case hasPrefixAt(s.b, s.i, "false"):
		s.i += 5
		return false
	}
	s.fail()
	return false
}

func hasPrefixAt(b []byte, i int, p string) bool {
	return len(b)-i >= len(p) && string(b[i:i+len(p)]) == p
}

// object reads an object, calling member for each key with the scanner at its value;
// member reads the value (or fails). seen guards against duplicate keys: each key's
// bit, from member's return, may be set once.
func (s *scanner) object(member func(key []byte) uint32) {
	if !s.lit('{') {
		s.fail()
		return
	}
	if s.lit('}') {
		return
	}
	var seen uint32
	for s.ok {
		key := s.str()
		if !s.ok || !s.lit(':') {
			s.fail()
			return
		}
		bit := member(key)
		if bit == 0 || seen&bit != 0 {
			s.fail()
			return
		}
		seen |= bit
		if s.lit(',') {
			continue
		}
		if !s.lit('}') {
			s.fail()
		}
		return
	}
}

// array reads an array, calling elem for each element with the scanner at it.
func (s *scanner) array(elem func()) {
	if !s.lit('[') {
		s.fail()
		return
	}
	if s.lit(']') {
		return
	}
	for s.ok {
		elem()
		if !s.ok || s.lit(',') {
			continue
		}
		if !s.lit(']') {
			s.fail()
		}
		return
	}
}

// end checks that only blanks follow.
func (s *scanner) end() {
	s.ws()
	if s.i != len(s.b) {
		s.fail()
	}
}

// fastDecision reads a decision line the way DecodeReply's general path does, or
// reports that it cannot (ok false: the general path decides). The line must hold
// type decision; assign, targets and order are read and checked member by member.
func fastDecision(line []byte) (*Decision, bool) {
	s := scanner{b: line, ok: true}
	m := &Decision{}
	isDecision := false
	s.object(func(key []byte) uint32 {
		switch string(key) {
		case "type":
			isDecision = string(s.str()) == TypeDecision
			return 1
		case "round":
			m.Round = s.integer(1, 1<<53-1)
			return 2
		case "assign":
			s.array(func() {
				a := Assignment{Count: 1}
				var worker int
				var have uint32
				s.object(func(key []byte) uint32 {
					switch string(key) {
					case "job":
						a.Job = s.integer(0, MaxCount)
						have |= 1
						return 1
					case "pool":
						a.Pool = s.integer(0, MaxCount)
						have |= 2
						return 2
					case "count":
						a.Count = s.integer(1, MaxCount)
						return 4
					case "worker":
						worker = s.integer(0, MaxCount)
						have |= 8
						return 8
					}
					return 0
				})
				if have&8 != 0 {
					a.Worker = &worker
				}
				if have&3 != 3 {
					s.fail()
				}
				m.Assign = append(m.Assign, a)
			})
			return 4
		case "targets":
			s.array(func() {
				var t Target
				var have uint32
				s.object(func(key []byte) uint32 {
					switch string(key) {
					case "job":
						t.Job = s.integer(0, MaxCount)
						have |= 1
						return 1
					case "pool":
						t.Pool = s.integer(0, MaxCount)
						have |= 2
						return 2
					case "target":
						t.Target = s.float()
						have |= 4
						return 4
					}
					return 0
				})
				if have != 7 || t.Target < 0 || t.Target > MaxCount {
					s.fail()
				}
				m.Targets = append(m.Targets, t)
			})
			return 8
		case "order":
			m.Order = []int{}
			s.array(func() { m.Order = append(m.Order, s.integer(0, MaxCount)) })
			return 16
		}
		return 0
	})
	s.end()
	if !s.ok || !isDecision || m.Round == 0 {
		return nil, false
	}
	return m, true
}

// Message is an engine message after hello — round, admit or end — as a client reads
// it: the members of its type are set, the others are zero. Decode reuses its slices,
// so what it holds is valid until the next Decode.
type Message struct {
	Type     string     `json:"type"`
	Round    int        `json:"round"`
	Time     float64    `json:"time"`
	Job      int        `json:"job"`
	Events   []Event    `json:"events"`
	Runnable []Runnable `json:"runnable"`
	Free     []int      `json:"free"`
}

// Decode reads an engine message line. The lines this engine writes are read without
// reflection or allocation once the slices have grown; any other valid JSON of the
// same shape (another encoder's spacing, members it does not know) is read by
// encoding/json.
func (m *Message) Decode(line []byte) error {
	if m.fastDecode(line) {
		return nil
	}
	*m = Message{}
	return json.Unmarshal(line, m)
}

// kindOf is the constant for an event kind, so events hold no copy of the line.
func kindOf(b []byte) string {
	for _, k := range Kinds {
		if string(b) == k {
			return k
		}
	}
	return ""
}

func (m *Message) fastDecode(line []byte) bool {
	s := scanner{b: line, ok: true}
	m.Type, m.Round, m.Time, m.Job = "", 0, 0, 0
	m.Events, m.Runnable, m.Free = m.Events[:0], m.Runnable[:0], m.Free[:0]
	s.object(func(key []byte) uint32 {
		switch string(key) {
		case "type":
			switch t := s.str(); string(t) {
			case TypeRound:
				m.Type = TypeRound
			case TypeAdmit:
				m.Type = TypeAdmit
			case TypeEnd:
				m.Type = TypeEnd
			default:
				s.fail()
			}
			return 1
		case "round":
			m.Round = s.integer(math.MinInt64+1, math.MaxInt64)
			return 2
		case "time":
			m.Time = s.float()
			return 4
		case "job":
			m.Job = s.integer(math.MinInt64+1, math.MaxInt64)
			return 8
		case "events":
			s.array(func() {
				var e Event
				s.object(func(key []byte) uint32 {
					switch string(key) {
					case "kind":
						if e.Kind = kindOf(s.str()); e.Kind == "" {
							s.fail()
						}
						return 1
					case "time":
						e.Time = s.float()
						return 2
					case "job":
						e.Job = s.integer(math.MinInt64+1, math.MaxInt64)
						return 4
					case "stage":
						e.Stage = s.integer(math.MinInt64+1, math.MaxInt64)
						return 8
					case "task":
						e.Task = s.integer(math.MinInt64+1, math.MaxInt64)
						return 16
					case "worker":
						e.Worker = s.integer(math.MinInt64+1, math.MaxInt64)
						return 32
					case "pool":
						e.Pool = s.integer(math.MinInt64+1, math.MaxInt64)
						return 64
					case "slots":
						e.Slots = s.integer(math.MinInt64+1, math.MaxInt64)
						return 128
					case "start":
						e.Start = s.float()
						return 256
					}
					return 0
				})
				m.Events = append(m.Events, e)
			})
			return 16
		case "runnable":
			s.array(func() {
				// Reuse the tasks slice of the element this one overwrites.
				var r Runnable
				if n := len(m.Runnable); n < cap(m.Runnable) {
					r.Tasks = m.Runnable[:n+1][n].Tasks[:0]
				}
				s.object(func(key []byte) uint32 {
					switch string(key) {
					case "job":
						r.Job = s.integer(math.MinInt64+1, math.MaxInt64)
						return 1
					case "tasks":
						if r.Tasks == nil {
							r.Tasks = []int{}
						}
						s.array(func() { r.Tasks = append(r.Tasks, s.integer(math.MinInt64+1, math.MaxInt64)) })
						return 2
					}
					return 0
				})
				m.Runnable = append(m.Runnable, r)
			})
			return 32
		case "free":
			s.array(func() { m.Free = append(m.Free, s.integer(math.MinInt64+1, math.MaxInt64)) })
			return 64
		}
		return 0
	})
	s.end()
	return s.ok && m.Type != ""
}
