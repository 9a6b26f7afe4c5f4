package protocol

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

// FuzzDecodeReply: any line gives a reply or a *FieldError, never a panic; what
// DecodeReply accepts the published schema accepts, and it reads back the same after
// Encode. The seed corpus is testdata/fuzz/FuzzDecodeReply plus the lines below.
func FuzzDecodeReply(f *testing.F) {
	for _, s := range []string{
		`{"type":"ready","protocol":1}`,
		`{"type":"ready","protocol":1,"admission":true,"tick":30,"conserving":true}`,
		`{"type":"refuse","reason":"no deadlines"}`,
		`{"type":"admission","job":3,"admit":false}`,
		`{"type":"decision","round":7,"assign":[{"job":0,"pool":1,"count":2},{"job":4,"pool":0,"worker":3}]}`,
		`{"type":"decision","round":1,"targets":[{"job":2,"pool":0,"target":3.5}]}`,
		`{"type":"bye","counts":{"plans":4},"fallbacks":1}`,
		`{"type":"ready","protocol":2,"wake":["arrival","task_finish"],"events":[]}`,
		`{"type":"ready","protocol":2,"wake":["start"]}`,
		`{"type":"decision","round":1,"order":[3,0,2]}`,
		`{"type":"decision","round":2,"order":[]}`,
		`{"type":"decision","round":2,"order":[1,-1]}`,
		`{"type":"decision","round":2, "assign":[{"job":0,"pool":0}] ,"order":[1.0,2e0]}`,
		`{"type":"error","message":"boom"}`,
		`{"type":"decision","round":1,"assign":[{"job":1e0,"pool":0.0}]}`,
		`{"type":"decision","round":0}`,
		`{"type":"decision","round":1,"assign":{}}`,
		`{"type":"admission","job":-1,"admit":true}`,
		`{"type":"nope"}`,
		`[]`, ``, `{`, `{"type":"bye"} {}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		// The fast path reads a decision exactly as the general path does, or not at
		// all.
		slow, slowErr := decodeReply(line)
		if fast, ok := fastDecision(line); ok && (slowErr != nil || !reflect.DeepEqual(fast, slow)) {
			t.Fatalf("%q: the fast path reads %+v, the general path %+v (%v)", line, fast, slow, slowErr)
		}
		r, err := DecodeReply(line)
		if err != nil {
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T), want a *FieldError", err, err)
			}
			if r != nil {
				t.Fatalf("a reply and an error")
			}
			return
		}
		if verr := Validate(line); verr != nil {
			t.Fatalf("DecodeReply accepts %q, the schema refuses it: %v", line, verr)
		}
		enc, err := Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeReply(bytes.TrimSuffix(enc, []byte("\n")))
		if err != nil || !reflect.DeepEqual(back, r) {
			t.Fatalf("%q: re-encoded as %q, read back as %+v (%v), want %+v", line, enc, back, err, r)
		}
	})
}
