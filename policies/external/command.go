package external

import (
	"fmt"
	"strings"
	"time"
)

// SpecPrefix starts an external policy in --policies: exec:NAME=CMD.
const SpecPrefix = "exec:"

// Command is an external policy as the command line and a sweep file name it: the
// program to run once per simulation, and what it is told.
type Command struct {
	// Name labels the policy's results, as a registered policy's name does.
	Name string
	// Argv is the program and its arguments, run without a shell.
	Argv []string
	// Dir is the program's working directory; empty is ours.
	Dir string
	// Env are NAME=VALUE settings added to our environment for the program.
	Env []string
	// Params are handed to the program in the hello message (a sweep file's other keys
	// of the policy's entry).
	Params map[string]any
	// Timeout bounds the wait for each reply and each write; 0 waits as long as it
	// takes (a policy may think, simulated time does not pass).
	Timeout time.Duration
}

// IsSpec reports whether s names an external policy (exec:…).
func IsSpec(s string) bool { return strings.HasPrefix(s, SpecPrefix) }

// ParseSpec reads exec:NAME=CMD: NAME labels the results, CMD is the program and its
// arguments, split at blanks outside single or double quotes.
func ParseSpec(s string) (Command, error) {
	rest, ok := strings.CutPrefix(s, SpecPrefix)
	if !ok {
		return Command{}, fmt.Errorf("%q: an external policy is exec:NAME=CMD", s)
	}
	name, cmd, ok := strings.Cut(rest, "=")
	if !ok {
		return Command{}, fmt.Errorf("%q: want exec:NAME=CMD (no = after the name)", s)
	}
	if err := CheckName(name); err != nil {
		return Command{}, fmt.Errorf("%q: %w", s, err)
	}
	argv, err := SplitCommand(cmd)
	if err != nil {
		return Command{}, fmt.Errorf("%q: %w", s, err)
	}
	return Command{Name: name, Argv: argv}, nil
}

// CheckName accepts a policy name made of letters, digits, '.', '_' and '-' (it names
// output files, such as a Gantt chart's).
func CheckName(name string) error {
	if name == "" {
		return fmt.Errorf("empty policy name")
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return fmt.Errorf("policy name %q: use letters, digits, '.', '_' and '-' only", name)
		}
	}
	return nil
}

// SplitCommand splits a command line into words at blanks outside quotes; single and
// double quotes group and are removed (there are no escapes and no shell expansion).
func SplitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	var quote rune
	inWord := false
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("command %q: unclosed %c quote", s, quote)
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("empty command")
	}
	return words, nil
}
