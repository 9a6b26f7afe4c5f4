// Package protocol is version 1 of the external policy protocol (docs/protocol.md):
// the messages the engine sends (hello, admit, round, end) and the replies a policy
// program gives (ready, refuse, admission, decision, bye, error), their JSON Schemas
// (schema/*.schema.json, embedded; Validate checks a message against them), and
// DecodeReply, which reads a reply line and names its first problem at its JSON path.
// It holds no engine logic: policies/external is the engine's side, and
// policies/external/client the Go client's.
package protocol
