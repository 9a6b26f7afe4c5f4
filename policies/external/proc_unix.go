//go:build unix

package external

import (
	"os/exec"
	"syscall"
)

// ownGroup puts the program in a process group of its own: a terminal's Ctrl-C then
// reaches coraopt only, which ends the program itself (after printing what finished),
// and killGroup reaches whatever the program started.
func ownGroup(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the program and its process group.
func killGroup(c *exec.Cmd) {
	if c.Process == nil {
		return
	}
	_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	_ = c.Process.Kill()
}
