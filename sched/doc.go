// Package sched is coraopt's scheduling domain: the instance (resources with capacities
// per slot, jobs with demands, release slots, parallelism caps, utilities of completion
// time and runtime distributions) and the schedule every solution path produces.
//
// Time is slotted: slots are numbered 1..T. A job's completion time is the last slot in
// which it holds any resource (rush.txt §II, constraint (1); cora.txt §II). Utilities are
// non-increasing functions of the completion slot; the decoder rejects any that increase
// anywhere on 1..T.
//
// The utility families and their exact formulas (DESIGN.md "The instance file"):
//
//	sigmoid   p / (1 + e^{μ(t−d)})                 cora.txt eq. (11)
//	linear    max(β(B−t) + W, 0); hard: 0 for t > B rush.txt §IV, cora.txt §III-D3
//	step      value for t ≤ deadline, late after
//	constant  value
//	piecewise linear between points (t, u), flat outside
//	table     u_t given for every slot
//	rds       ω·δ(t), δ = 1 (t < soft), 1 − (t − soft)/soft (soft ≤ t ≤ hard), 0 (t > hard)   rds.txt eq. (4)
//
// RUSH prints its sigmoid as W/(1+e^{β(B−T)}), which increases with T for β > 0; we use
// CORA's decreasing form, which is what both papers describe in words.
//
// This package imports nothing of coraopt's: formulations, policies and verify import it.
package sched
