package protocol

import "testing"

// The schemas accept the protocol's messages and refuse what breaks them.
func TestValidate(t *testing.T) {
	for _, c := range []struct {
		line string
		ok   bool
	}{
		{`{"type":"round","round":1,"time":0,"events":[],"runnable":[{"job":0,"tasks":[3]}],"free":[4]}`, true},
		{`{"type":"round","round":1,"time":0,"events":[{"kind":"start","time":0,"job":0,"stage":0,"task":0,"worker":0,"pool":0}],"runnable":[],"free":[4]}`, true},
		{`{"type":"round","round":1,"time":0,"events":[{"kind":"start","time":0,"job":0}],"runnable":[],"free":[4]}`, false},
		{`{"type":"round","round":1,"time":0,"events":[],"runnable":[],"free":["4"]}`, false},
		{`{"type":"admit","time":3,"job":2,"events":[{"kind":"capacity","time":3,"pool":0,"slots":2}]}`, true},
		{`{"type":"end","time":3,"events":[{"kind":"tick","time":3,"job":1}]}`, false},
		{`{"type":"decision","round":2,"assign":[{"job":0,"pool":0,"count":0}]}`, false},
		{`{"type":"decision","round":2,"assign":[{"job":0,"pool":0,"count":1,"worker":2}]}`, true},
		{`{"type":"ready","protocol":1,"tick":-1}`, false},
		{`{"type":"bye","counts":{"plans":2}}`, true},
		{`{"type":"event","kind":"tick","time":0}`, false},
		{`{"type":"hello"}`, false},
		{`not json`, false},
	} {
		err := Validate([]byte(c.line))
		if (err == nil) != c.ok {
			t.Errorf("%s: Validate = %v, want ok=%v", c.line, err, c.ok)
		}
	}
}
