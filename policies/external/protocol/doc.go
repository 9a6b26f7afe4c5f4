// Package protocol is version 2 of the external policy protocol (docs/protocol.md):
// the messages the engine sends (hello, admit, round, end) and the replies a policy
// program gives (ready, refuse, admission, decision, bye, error), their JSON Schemas
// (schema/*.schema.json, embedded; Validate checks a message against them), and the
// codecs both sides use: DecodeReply, which reads a reply line and names its first
// problem at its JSON path, Message.Decode for the engine's messages and AppendReply.
// The lines the engine and the clients write are read and written without reflection
// (a round trip is then the pipe's cost, not JSON's); encoding/json is the fallback
// for any other spelling and the source of the error messages.
// It holds no engine logic: policies/external is the engine's side, and
// policies/external/client the Go client's.
package protocol
