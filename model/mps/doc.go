// Package mps reads and writes linear, mixed-integer and convex quadratic programs in the
// MPS format, free and fixed, to and from model.Problem.
//
// # Reading
//
// Sections: NAME, OBJSENSE (MIN/MAX/MINIMIZE/MAXIMIZE, on the OBJSENSE line or the next),
// ROWS, COLUMNS (with 'MARKER' 'INTORG'/'INTEND' integer blocks), RHS, RANGES, BOUNDS,
// QUADOBJ or QMATRIX, ENDATA. Other sections (quadratic constraints, SOS, indicators, …)
// are rejected with an error naming them. The rules follow HiGHS 1.10 (io/HMpsFF.cpp)
// where the format leaves a choice, except where noted:
//
//   - NAME: the first word in free MPS (Netlib files put comments after it), the rest
//     of the line in fixed MPS.
//   - ROWS: the first N row is the objective; later N rows are dropped with their
//     entries (a warning names them).
//   - RHS on the objective row is minus the objective constant: Offset = −RHS.
//   - RANGES R on a row with right-hand side b: L rows [b−|R|, b]; G rows [b, b+|R|];
//     E rows [b, b+|R|] when R > 0 and [b−|R|, b] when R < 0. The sum is computed
//     exactly from R's decimal text and rounded once (HiGHS rounds R first; the two can
//     differ in the last bit). This is what lets Write make ranged rows round-trip
//     exactly.
//   - BOUNDS: UP, LO, FX, FR, MI, PL, BV, LI, UI. SC and SI (semi-continuous,
//     semi-integer) are rejected. A second definition of a column's lower or upper bound
//     is ignored with a warning (HiGHS keeps the first).
//   - A negative UP (or UI) bound on a column whose lower bound was not given sets the
//     lower bound to −Inf, with a warning: the classic MPS rule of CPLEX, Gurobi and
//     lp_solve. HiGHS 1.10 does not apply it: it keeps the lower bound 0 and reports the
//     model infeasible (bounds [0, u] with u < 0), which a Problem cannot represent.
//   - Integer columns from markers that no BOUNDS entry mentions get bounds [0, 1], as in
//     HiGHS 1.10 (kintegerVarsInColumnsAreBinary); any BOUNDS entry for the column
//     (including PL) leaves the unmentioned side at its default 0 or +Inf. CPLEX and
//     Gurobi default such columns to [0, +Inf); Write therefore always writes the bounds
//     of integer columns, so its files mean the same to every reader.
//   - QUADOBJ (or QSECTION naming the objective row) gives one triangle of Q (either),
//     QMATRIX both; the objective is cᵀx + ½xᵀQx + Offset and Q is stored as its lower
//     triangle.
//   - Entries for rows not in ROWS, second values for the same entry, and columns first
//     named in BOUNDS are warnings, not errors (HiGHS ignores or adds them likewise).
//     A column whose entries are not consecutive in COLUMNS is an error.
//   - Values: what strconv.ParseFloat accepts, Fortran "D" exponents, and "-0" as 0.
//     NaN is an error. Bounds, right-hand sides and ranges of magnitude at least
//     Options.Infinity (default 1e20) are infinite.
//
// Free MPS separates fields by whitespace. Fixed MPS takes fields from columns 2-3, 5-12,
// 15-22, 25-36, 40-47 and 50-61, so names may contain spaces; a number may run past its
// field when nothing follows it. Format Auto (the default) tries free MPS, then fixed.
// Lines starting with '*' are comments. Every error is a *ParseError naming the line,
// and no input makes the reader panic (FuzzRead checks).
//
// # Writing
//
// Write produces free MPS by default and fixed MPS on request (every name must then fit
// in 8 characters). Numbers are written with strconv's shortest round-trip form, so
// Read(Write(p)) == p exactly, names included: unnamed columns and rows become C1, C2, …
// and R1, R2, …, an unnamed objective "obj". Integer columns are written inside markers
// with explicit bounds; ranged rows as L rows with a RANGES entry; rows free on both sides
// as L rows with right-hand side 1e+30 (read back as +Inf); the offset as −RHS of the
// objective row; Q as QUADOBJ (lower triangle).
package mps
