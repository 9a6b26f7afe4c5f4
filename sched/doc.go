// Package sched is coraopt's scheduling domain: the instance (resources with capacities
// per slot, jobs with demands, release slots, parallelism caps, utilities of completion
// time and runtime distributions), its JSON file format with path-precise validation,
// and the schedule every solution path produces.
//
// Time is slotted: slots are numbered 1..T. A job's completion time is the last slot in
// which it holds any resource (rush.txt §II, constraint (1); cora.txt §II). Utilities are
// non-increasing functions of the completion slot; the decoder rejects any that increase
// anywhere on 1..T.
//
// # Utilities
//
// The utility families and their exact formulas (docs/instance.md):
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
// # The instance file
//
// Decode, DecodeFile and Parse read it; Encode and Instance.MarshalJSON write it; Schema
// (the embedded instance.schema.json, JSON Schema draft 2020-12) describes it. Fields and
// defaults:
//
//	name                       string, optional
//	horizon                    integer 1..1,000,000, optional (default below)
//	resources[]                at least 1
//	  .name                    non-empty, unique
//	  .capacity                integer 0..10^12 per slot, or an array of one such integer per slot 1..T
//	jobs[]                     at least 1
//	  .id                      non-empty, unique
//	  .demand                  {resource name: integer 0..10^12}; names must be resources;
//	                           unnamed resources get 0; at least one entry positive
//	  .release                 first slot the job may use, 1..T (default 1)
//	  .max_parallel            most units of any one resource per slot, 0 = no cap (default 0)
//	  .task_slots              R_i, slots a task holds a container, 1..10^6 (default 1)
//	  .utility                 {"type": …} with the type's fields, all required unless noted:
//	                           sigmoid {priority, deadline, decay ≥ 0}
//	                           linear {priority, budget, slope ≥ 0, hard (default false)}
//	                           step {value, deadline, late (default 0)}
//	                           constant {value}
//	                           piecewise {points: [[t, u], …], ≥ 1 point, t strictly increasing}
//	                           table {values: [u_1, …], 1..T values; a shorter table keeps its last value}
//	                           rds {priority, soft > 0, hard with soft ≤ hard ≤ 2·soft}
//	  .runtime                 optional, for RS; {"type": …}:
//	                           impulse {mean > 0, tasks ≥ 1 (default 1)}
//	                           gaussian {mean > 0, std ≥ 0, tasks ≥ 1 (default 1)}
//	                           empirical {samples: ≥ 2 values ≥ 0, tasks ≥ 1 (default 1)}
//	                           pmf {probabilities: ≥ 1 values ≥ 0 summing to 1 within 1e-9
//	                                (not normalised: a file that does not sum to 1 is wrong),
//	                                bin_width > 0 (default 1)}
//	robust                     optional: {theta in (0, 1), delta ≥ 0, bins 2..10^6 (default 256)}
//
// Every real number must be finite (a literal such as 1e999 is rejected). An integer may be
// written with a zero fraction (3.0, 1e2), as JSON Schema's "integer" allows.
//
// # The default horizon
//
// When the file has no "horizon", Instance.HorizonSource says where T came from:
//
//   - "capacity": some resource gives its capacity as an array; T is its length, and
//     every capacity array must have that length.
//   - otherwise "demand": the smallest T such that, for every resource, T·C ≥ the total
//     demand, and every job can finish on its own: T ≥ release − 1 + ⌈demand /
//     min(max_parallel, C)⌉ for each resource it uses;
//   - or "utility", when the latest slot named by any utility (Deadliner.NamedSlot:
//     a deadline, budget, rds hard bound, last piecewise point or table length), rounded
//     up, is later than that.
//
// A default beyond MaxHorizon is an error that asks for an explicit horizon. With
// "horizon" in the file, HorizonSource is "file".
//
// # Validation
//
// A bad file yields a *ValidationError listing every problem found, one per line as
// "path: message", in file order. The path is the JSON path of the offending value,
// `jobs[2].utility.decay`, with `["…"]` for keys that are not identifiers. The rules:
//
//   - syntax: the message names the line and column (truncated input, stray characters,
//     trailing data after the object, an empty file);
//   - structure: unknown fields at any level, duplicate keys in an object, missing
//     required fields, wrong JSON types, non-integer integers, non-finite numbers, every
//     range in the table above;
//   - references: duplicate job ids, duplicate resource names, demand naming an unknown
//     resource, a demand that is zero for every resource;
//   - horizon: capacity arrays whose length is not T (or that disagree with each other
//     when T is not given), release > T, a table longer than T, R·T above
//     MaxCapacityCells;
//   - utilities: any utility not finite at slot 1 or T, or that increases anywhere on
//     1..T: the first slot t with U(t+1) > U(t) + 1e-12·max(1, |U(t)|) is reported with
//     both values (found next to each family's breakpoints, or by bisection for a
//     sigmoid, not by a scan over all T slots);
//   - room: a resource whose total demand exceeds its total capacity over 1..T
//     (`resources[0]: total demand 530 of "containers" exceeds total capacity 480 over
//     horizon 12`), and a job that cannot get its demand of some resource by slot T even
//     alone, given its release and max_parallel (Σ_{t ≥ release} min(max_parallel, C_t)
//     < demand).
//
// The rules that depend on the horizon run only when the values they use are valid, so
// one mistake is not reported three times. The JSON Schema is applied to every document
// as well; what it finds is reported only where the Go checks were silent (they are a
// superset: TestSchemaAgreesWithGo holds both to the corpus in testdata/instances).
//
// # Limits
//
// Decode reads at most MaxInputBytes, accepts horizons up to MaxHorizon, R·T up to
// MaxCapacityCells and quantities up to MaxQuantity, so a small file cannot make it
// allocate much; its checks take time proportional to the file plus R·T·log T.
//
// This package imports nothing of coraopt's: formulations, policies and verify import it.
// Package schedtest draws random valid instances for property tests.
package sched
