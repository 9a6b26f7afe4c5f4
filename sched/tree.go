package sched

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// node is one JSON value with the order and multiplicity of object keys preserved, so
// the decoder can report unknown and duplicate keys in document order. encoding/json's
// map decoding forgets both.
type node struct {
	kind nodeKind
	b    bool
	num  json.Number
	str  string
	arr  []*node
	keys []string // object keys in document order (duplicates included)
	vals []*node
}

type nodeKind int

const (
	kindNull nodeKind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

func (k nodeKind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// parseTree parses one JSON document. A syntax error comes back as a single Problem
// whose message names the line and column.
func parseTree(data []byte) (*node, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &ValidationError{Problems: []Problem{{Msg: "empty document: expected a JSON object"}}}
	}
	// json.Unmarshal's validity scan gives exact offsets for every syntax error,
	// trailing data and truncation; the token stream below then cannot fail.
	if err := json.Unmarshal(data, new(json.RawMessage)); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			pos := int(se.Offset)
			if !strings.HasPrefix(se.Error(), "unexpected end") && pos > 0 {
				pos-- // Offset is just past the offending byte
			}
			line, col := lineColumn(data, pos)
			return nil, &ValidationError{Problems: []Problem{{
				Msg: fmt.Sprintf("syntax error at line %d, column %d: %s", line, col, se.Error()),
			}}}
		}
		return nil, &ValidationError{Problems: []Problem{{Msg: "syntax error: " + err.Error()}}}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := readNode(dec)
	if err != nil {
		return nil, fmt.Errorf("sched: reading validated JSON: %w", err)
	}
	return n, nil
}

func readNode(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return &node{kind: kindNull}, nil
	case bool:
		return &node{kind: kindBool, b: t}, nil
	case json.Number:
		return &node{kind: kindNumber, num: t}, nil
	case string:
		return &node{kind: kindString, str: t}, nil
	case json.Delim:
		switch t {
		case '[':
			n := &node{kind: kindArray}
			for dec.More() {
				v, err := readNode(dec)
				if err != nil {
					return nil, err
				}
				n.arr = append(n.arr, v)
			}
			_, err := dec.Token() // ]
			return n, err
		case '{':
			n := &node{kind: kindObject}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key is %T", kt)
				}
				v, err := readNode(dec)
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, key)
				n.vals = append(n.vals, v)
			}
			_, err := dec.Token() // }
			return n, err
		}
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

// lineColumn converts a byte offset into a 1-based line and a 1-based column counted in
// characters.
func lineColumn(data []byte, pos int) (line, col int) {
	pos = min(max(pos, 0), len(data))
	before := data[:pos]
	line = 1 + bytes.Count(before, []byte{'\n'})
	if i := bytes.LastIndexByte(before, '\n'); i >= 0 {
		before = before[i+1:]
	}
	return line, 1 + utf8.RuneCount(before)
}

// get returns the last value stored under key (encoding/json's rule for duplicates).
func (n *node) get(key string) *node {
	for i := len(n.keys) - 1; i >= 0; i-- {
		if n.keys[i] == key {
			return n.vals[i]
		}
	}
	return nil
}

// float parses a number node. ok is false when it does not fit a float64 (±Inf).
func (n *node) float() (f float64, ok bool) {
	f, err := strconv.ParseFloat(string(n.num), 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) && math.Abs(f) < 1 {
			return f, true // underflow to ±0 is a fine value
		}
		return f, false
	}
	return f, true
}

// toAny converts the tree into the generic form the JSON Schema validator takes. Numbers
// are canonicalised through float64 (big.Rat parsing of a literal like 1e999999999 is
// expensive, and the Go side judges magnitudes in float64 anyway); a number beyond
// float64 becomes ±1e309 so the schema's finiteness bounds still see it.
func (n *node) toAny() any {
	switch n.kind {
	case kindBool:
		return n.b
	case kindNumber:
		if _, err := strconv.ParseInt(string(n.num), 10, 64); err == nil {
			return n.num
		}
		f, ok := n.float()
		switch {
		case ok:
			return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
		case f > 0:
			return json.Number("1e309")
		default:
			return json.Number("-1e309")
		}
	case kindString:
		return n.str
	case kindArray:
		out := make([]any, len(n.arr))
		for i, v := range n.arr {
			out[i] = v.toAny()
		}
		return out
	case kindObject:
		out := make(map[string]any, len(n.keys))
		for i, k := range n.keys {
			out[k] = n.vals[i].toAny()
		}
		return out
	}
	return nil
}

// DuplicateKeys parses data as one JSON document and lists every object key that occurs
// a second time in its object, at that key's path, in document order — what
// encoding/json's decoding into a map or struct silently resolves to the last value. A
// decoder of another coraopt file format that reads into maps calls it first, so that
// its files get the same errors as instance files. A document that is not JSON gives a
// *ValidationError whose one problem names the line and column, as Parse does.
func DuplicateKeys(data []byte) ([]Problem, error) {
	root, err := parseTree(data)
	if err != nil {
		return nil, err
	}
	var ps problems
	root.duplicateKeys(&ps, "")
	return ps.list, nil
}

func (n *node) duplicateKeys(ps *problems, path string) {
	switch n.kind {
	case kindArray:
		for i, v := range n.arr {
			v.duplicateKeys(ps, pathIndex(path, i))
		}
	case kindObject:
		reportDuplicateKeys(ps, path, n)
		for i, k := range n.keys {
			n.vals[i].duplicateKeys(ps, pathKey(path, k))
		}
	}
}

// PathKey appends an object key to a JSON path the way this package's problems write it:
// ".key" for identifier-like keys, otherwise a quoted index (`demand["gpu memory"]`).
func PathKey(path, key string) string { return pathKey(path, key) }

// pathKey appends an object key to a path: ".key" for identifier-like keys, otherwise
// a quoted index (`demand["gpu memory"]`).
func pathKey(path, key string) string {
	if isIdent(key) {
		if path == "" {
			return key
		}
		return path + "." + key
	}
	return path + "[" + strconv.Quote(key) + "]"
}

func pathIndex(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r == '-' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z'):
		case '0' <= r && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
