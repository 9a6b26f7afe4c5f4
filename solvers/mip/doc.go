// Package mip is coraopt's built-in mixed-integer programming solver, registered as the
// backend "mip": LP-based branch and bound on the built-in dual simplex (package
// simplex), in pure Go, so that a binary built without cgo solves every model coraopt
// builds. Pure LPs are handed to the simplex unchanged; quadratic objectives are rejected.
//
// # Method
//
// The search follows Achterberg's thesis "Constraint Integer Programming" (TU Berlin,
// 2007) and the MIP solver of HiGHS as its documentation describes it:
//
//   - Presolve for integer programs (Achterberg ch. 10): integer bounds are rounded,
//     bounds of integer columns are tightened from row activities (repeated until nothing
//     changes), and coefficients of binary columns in one-sided rows are strengthened
//     (Savelsbergh's coefficient reduction: when one value of the binary makes the row
//     redundant with slack d, its coefficient and the right-hand side move by d). Both
//     keep the columns and rows, so no postsolve is needed, and both keep every integer
//     point, so an answer is checked against the original problem.
//   - The root LP is solved from scratch (with the simplex's own presolve). Once the
//     root's cuts are in, the LP lives in a simplex.Session: every node LP starts from
//     its parent's optimal basis — without refactorizing when the session still holds it,
//     as for the child a plunge continues with. A bound change leaves that basis dual
//     feasible, the case the dual simplex is built for.
//   - Cuts at the root, in rounds while they move the bound: Gomory mixed-integer cuts
//     read from the optimal tableau (simplex.Tableau; Achterberg §8.3, with the GMI
//     formula as in Cornuéjols' survey "Valid inequalities for mixed integer linear
//     programs", 2008), over the nonbasic columns' and rows' distances from their bounds,
//     kept when their coefficients span at most six orders of magnitude and they cut the
//     LP point off; and lifted (extended) knapsack cover inequalities from the rows whose
//     integer part is binary (Achterberg §8.1; negative coefficients are complemented,
//     other columns bounded by their activity); and complemented mixed-integer rounding
//     cuts (Marchand and Wolsey 2001; Achterberg §8.2) from single rows and from the rows
//     path aggregation builds from them (up to five more rows, each cancelling the
//     continuous column farthest from its bounds with the tightest row that holds it),
//     with continuous columns substituted by their nearest bound or variable upper bound
//     x ≤ u·y (y binary or a general integer) and the divisor δ chosen among the integer
//     coefficients (with δ = u on a flow-conservation row this is the flow cover
//     x_a ≤ d·y_a + outflow, so f₀ = d/u as small as 1e-4 is accepted, and on the
//     row's other side the cut-set inequality Σ_in y ≥ 1, so f₀ = 1 − d/u as large as
//     0.99999 is too). Each round's cuts are ordered by efficacy and a cut nearly parallel
//     to a more efficacious one (cosine above 0.999) is not added; a cut whose row was
//     slack at three root LPs in a row leaves the LP (aging, as in HiGHS and SCIP), so
//     the LP the rounds re-solve stays small. Cuts that do not bind at the last root LP
//     are dropped before the tree.
//   - Node selection: best bound, with plunging (Achterberg §6.3): after branching, the
//     search continues with a child of the node just solved while that child's bound
//     stays within a fraction of the gap, then returns to the open node of least bound.
//     Until there is an incumbent the search goes depth first instead, through the open
//     siblings of the latest plunge.
//   - Branching: reliability pseudo-cost branching (Achterberg §5.4): per-unit objective
//     gains of each column's down and up branches, averaged; a column whose pseudo-costs
//     rest on fewer than a reliability threshold of observations is scored by strong
//     branching (both children's LPs solved, warm-started, with an iteration limit), and
//     a child found infeasible there fixes the column in the node. Scores are products
//     max(q⁻, ε)·max(q⁺, ε). Most-fractional branching is the fallback
//     (Solver.Branching = MostFractional).
//   - Primal heuristics: rounding of every LP solution (with the continuous columns
//     re-solved when the problem has any); fractional diving at the root (Achterberg
//     §9.1: fix the least fractional column to its nearest integer, re-solve, and try
//     the other side when that is infeasible); and RENS (Berthold's relaxation enforced
//     neighborhood search, Achterberg §9.2): a sub-MIP with a node limit in which the
//     integer columns integral at the root LP are fixed and the others restricted to
//     their two nearest integers.
//   - Reduced-cost fixing against the incumbent: globally with the root LP's reduced
//     costs, and at every node with its own, for the node's subtree.
//   - Pruning uses the incumbent minus the gap tolerance, and minus almost one when every
//     objective coefficient is an integer on integer columns only.
//
// # Tolerances
//
// As HiGHS documents them (its options mip_feasibility_tolerance, mip_abs_gap and
// mip_rel_gap): a column is integral within DefaultIntegralityTol (1e-6); the search ends
// when the incumbent and the bound differ by at most DefaultAbsGap (1e-6) or by the
// relative gap (incumbent − bound)/max(1, |incumbent|) ≤ Options.MIPGap. The default
// relative gap is DefaultRelGap (1e-6) rather than HiGHS's 1e-4, because coraopt compares
// backends' optima at 1e-6. The returned X has every integer column rounded to an exact
// integer; when the problem has continuous columns they are re-solved with the integers
// fixed, so that the rows hold to the simplex's tolerances.
//
// # Results
//
// Status Optimal with the incumbent and a BestBound within the gap; Infeasible; Unbounded
// (the LP relaxation is unbounded and a search with zero costs finds an integer point —
// for rational data that makes the MIP unbounded); TimeLimit (Options.TimeLimit or a
// context deadline) and IterationLimit (Options.IterationLimit on the total simplex
// iterations, or Solver.NodeLimit on the nodes) with the incumbent, if any, and the best
// bound of the open nodes; Other when the context is cancelled. Nodes counts the
// branch-and-bound nodes whose LP was solved.
//
// # Measurements
//
// CheckSet lists the MIPs of HiGHS's check set with their reference optima (data for
// `coraopt bench`). TestCheckSet solves them with a 60-s limit each and fails on a wrong
// answer (a time limit is reported as a shortfall); TestCheckSetVersus, built with the
// highs and lpsolve tags, runs HiGHS and lp_solve on each model too and reports the
// shifted geometric means (10 ms shift, unsolved models counted at the limit). Both run
// only when CORAOPT_MIP_CHECKSET is set (1 for all models, or a comma-separated list);
// CORAOPT_MIP_LIMIT changes the limit:
//
//	CORAOPT_MIP_CHECKSET=1 go test -tags highs,lpsolve -run TestCheckSetVersus -v -timeout 2h ./solvers/mip/
//
// BenchmarkCheckSet (and BenchmarkCheckSetHiGHS, BenchmarkCheckSetLpsolve under the tags)
// times the models solved in about a second.
package mip
