package sim_test

// Tests run policies that solve (rds, cora-final) and need the backends a program
// links in.
import _ "github.com/coraopt/coraopt/solvers/all"
