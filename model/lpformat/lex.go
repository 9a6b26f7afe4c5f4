package lpformat

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

type tokenKind uint8

const (
	tEOF tokenKind = iota
	tNumber
	tName
	tKeyword
	tColon
	tPlus
	tMinus
	tLBracket
	tRBracket
	tCaret
	tStar
	tSlash
	tCmp
)

// Comparison operators.
const (
	cmpLE uint8 = iota
	cmpGE
	cmpEQ
)

// Section keywords.
const (
	kwMin uint8 = iota
	kwMax
	kwSubjectTo
	kwBounds
	kwGeneral
	kwBinary
	kwSemi
	kwSOS
	kwEnd
)

var keywordNames = [...]string{
	kwMin: "Minimize", kwMax: "Maximize", kwSubjectTo: "Subject To", kwBounds: "Bounds",
	kwGeneral: "General", kwBinary: "Binary", kwSemi: "Semi-continuous", kwSOS: "SOS", kwEnd: "End",
}

var keywords = map[string]uint8{
	"minimize": kwMin, "minimise": kwMin, "minimum": kwMin, "min": kwMin,
	"maximize": kwMax, "maximise": kwMax, "maximum": kwMax, "max": kwMax,
	"st": kwSubjectTo, "s.t.": kwSubjectTo, "st.": kwSubjectTo,
	"bounds": kwBounds, "bound": kwBounds,
	"general": kwGeneral, "generals": kwGeneral, "gen": kwGeneral, "integer": kwGeneral, "integers": kwGeneral,
	"binary": kwBinary, "binaries": kwBinary, "bin": kwBinary,
	"semi-continuous": kwSemi, "semis": kwSemi, "semi": kwSemi,
	"sos": kwSOS, "end": kwEnd,
}

type token struct {
	text  string
	num   float64 // tNumber
	line  int32
	kind  tokenKind
	op    uint8 // tCmp: cmpLE, cmpGE, cmpEQ; tKeyword: kw*
	colon bool  // tName: followed by ':' (a label)
}

// isDelimiter reports the characters that end a name.
func isDelimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', '\f', '\v', '\\', ':', '+', '-', '<', '>', '=', '^', '*', '/', '[', ']', ';':
		return true
	}
	return false
}

// lexer turns the input into tokens, dropping comments and recording a problem name
// given as "\ Problem name: X".
type lexer struct {
	src         string
	pos         int
	line        int32
	problemName string
	named       bool
}

func (l *lexer) errorf(format string, args ...any) error {
	return newError(l.line, "", format, args...)
}

// tokens lexes the whole input.
func (l *lexer) tokens() ([]token, error) {
	l.line = 1
	out := make([]token, 0, len(l.src)/3+16) // dense files have a token per three bytes
	for {
		t, err := l.next()
		if err != nil {
			return nil, err
		}
		out = append(out, t)
		if t.kind == tEOF {
			break
		}
	}
	// Join two-word keywords, and mark names that label something.
	joined := out[:0]
	for i := 0; i < len(out); i++ {
		t := out[i]
		if t.kind == tName && i+1 < len(out) && out[i+1].kind == tName {
			pair := strings.ToLower(t.text + " " + out[i+1].text)
			if pair == "subject to" || pair == "such that" {
				joined = append(joined, token{kind: tKeyword, op: kwSubjectTo, text: t.text + " " + out[i+1].text, line: t.line})
				i++
				continue
			}
		}
		if t.kind == tName && i+2 < len(out) && out[i+1].kind == tMinus && out[i+2].kind == tName &&
			strings.EqualFold(t.text, "semi") && strings.EqualFold(out[i+2].text, "continuous") {
			joined = append(joined, token{kind: tKeyword, op: kwSemi, text: "semi-continuous", line: t.line})
			i += 2
			continue
		}
		if t.kind == tName && i+1 < len(out) && out[i+1].kind == tColon {
			t.colon = true
			joined = append(joined, t)
			i++ // the colon
			continue
		}
		if t.kind == tName && len(t.text) <= len("semi-continuous") {
			if kw, ok := keywords[strings.ToLower(t.text)]; ok {
				t.kind, t.op = tKeyword, uint8(kw)
			}
		}
		joined = append(joined, t)
	}
	return joined, nil
}

func (l *lexer) next() (token, error) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == '\n':
			l.line++
			l.pos++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			l.pos++
		case c == '\\' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '*':
			if err := l.block("*\\"); err != nil {
				return token{}, err
			}
		case c == '/' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '*':
			if err := l.block("*/"); err != nil {
				return token{}, err
			}
		case c == '\\' || c == ';':
			end := strings.IndexByte(l.src[l.pos:], '\n')
			if end < 0 {
				end = len(l.src) - l.pos
			}
			l.comment(l.src[l.pos+1 : l.pos+end])
			l.pos += end
		default:
			return l.token()
		}
	}
	return token{kind: tEOF, line: l.line}, nil
}

// block skips a block comment up to and including end.
func (l *lexer) block(end string) error {
	start := l.line
	i := strings.Index(l.src[l.pos+2:], end)
	if i < 0 {
		return newError(start, "", "comment is not closed with %s", end)
	}
	skipped := l.src[l.pos : l.pos+2+i+len(end)]
	l.line += int32(strings.Count(skipped, "\n"))
	l.pos += len(skipped)
	return nil
}

// comment records "\ Problem name: X" (the first one only).
func (l *lexer) comment(text string) {
	text = strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(text, "Problem name:"); ok && !l.named {
		name := strings.TrimSpace(rest)
		if strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return // not a name Write could give back
		}
		l.problemName, l.named = name, true
	}
}

func (l *lexer) token() (token, error) {
	start := l.pos
	c := l.src[l.pos]
	t := token{line: l.line, text: l.src[l.pos : l.pos+1]}
	l.pos++
	switch c {
	case ':':
		t.kind = tColon
	case '+':
		t.kind = tPlus
	case '-':
		t.kind = tMinus
	case '[':
		t.kind = tLBracket
	case ']':
		t.kind = tRBracket
	case '^':
		t.kind = tCaret
	case '*':
		t.kind = tStar
	case '/':
		t.kind = tSlash
	case '<', '>', '=':
		t.kind = tCmp
		// <, <=, =<  |  >, >=, =>  |  =
		next := byte(0)
		if l.pos < len(l.src) {
			next = l.src[l.pos]
		}
		switch {
		case c == '<':
			t.op = cmpLE
			if next == '=' {
				l.pos++
			}
		case c == '>':
			t.op = cmpGE
			if next == '=' {
				l.pos++
			}
		case next == '<':
			t.op = cmpLE
			l.pos++
		case next == '>':
			t.op = cmpGE
			l.pos++
		default:
			t.op = cmpEQ
		}
		t.text = l.src[start:l.pos]
	default:
		l.pos--
		if c >= '0' && c <= '9' || c == '.' && l.pos+1 < len(l.src) && l.src[l.pos+1] >= '0' && l.src[l.pos+1] <= '9' {
			return l.number()
		}
		end := l.pos
		for end < len(l.src) && !isDelimiter(l.src[end]) {
			end++
		}
		t.text = l.src[l.pos:end]
		l.pos = end
		switch strings.ToLower(t.text) {
		case "inf", "infinity":
			t.kind, t.num = tNumber, math.Inf(1)
		default:
			t.kind = tName
		}
	}
	return t, nil
}

// number lexes digits [. digits] [e|E [+|-] digits].
func (l *lexer) number() (token, error) {
	start := l.pos
	digits := func() {
		for l.pos < len(l.src) && l.src[l.pos] >= '0' && l.src[l.pos] <= '9' {
			l.pos++
		}
	}
	digits()
	if l.pos < len(l.src) && l.src[l.pos] == '.' {
		l.pos++
		digits()
	}
	if l.pos < len(l.src) && (l.src[l.pos] == 'e' || l.src[l.pos] == 'E') {
		k := l.pos + 1
		if k < len(l.src) && (l.src[k] == '+' || l.src[k] == '-') {
			k++
		}
		if k < len(l.src) && l.src[k] >= '0' && l.src[k] <= '9' {
			l.pos = k
			digits()
		}
	}
	text := l.src[start:l.pos]
	v, err := strconv.ParseFloat(text, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return token{}, l.errorf("bad number %q", text)
	}
	return token{kind: tNumber, text: text, num: v, line: l.line}, nil
}
