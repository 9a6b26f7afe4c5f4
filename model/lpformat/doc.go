// Package lpformat reads and writes linear, mixed-integer and convex quadratic programs
// in the CPLEX LP format, to and from model.Problem.
//
// # Writing
//
//	\ Problem name: sample
//	Maximize
//	 obj: 3 x + 2 y - b + 0 z + [ - 2 x ^ 2 + x * z ] / 2 + 12.5
//	Subject To
//	 cap: x + y + 2 b <= 8
//	 band: -1.5 <= z + u <= 2.5
//	 spare: x + 3 z >= -inf
//	Bounds
//	 x <= 4
//	 z free
//	 -inf <= u <= 3
//	General
//	 y
//	Binary
//	 b
//	End
//
// The objective lists every column in order (with 0 coefficients where the cost is
// zero), so reading the file gives the columns back in the same order; its constant
// comes last. The quadratic part is written as [ … ] / 2 with Q_jj x_j ^ 2 and
// 2 Q_ij x_i * x_j, which is ½xᵀQx exactly. Ranged rows are written as lo <= expr <= hi
// (CPLEX, Gurobi and GLPK read this form; HiGHS 1.10 does not, and writes ranged rows
// as two constraints instead); rows free on both sides as expr >= -inf. Integer
// columns with bounds [0, 1] go to Binary, other integer columns to General.
//
// Names the format cannot carry are sanitised: characters other than letters, digits
// and _ . ( ) ! # $ % & , ? @ { } ~ ' | become '_'; a name that starts with a digit or a
// period, could be read as a number (e1, inf…, nan…) or is a keyword of the format
// (st, end, free, bounds, min, …) gets a leading '_'; clashes get a numeric suffix.
// Unnamed columns and rows become C1…, R1…, the objective obj. Names reports the
// names Write will use, so that results can be mapped back. Numbers are written in
// strconv's shortest round-trip form: reading a written file gives the Problem back
// exactly, with those names.
//
// # Reading
//
// The reader accepts the CPLEX LP format as HiGHS 1.10 does (extern/filereaderlp):
// sections Minimize/Maximize (also min, max, minimum, maximum, minimise, maximise),
// Subject To (also such that, st, s.t., st.), Bounds, General/Integer (gen, generals,
// integers), Binary (bin, binaries), End; keywords in any case and anywhere on a line;
// comments from \ to the end of the line, \* … *\ and /* … */ blocks, and ; to the end
// of the line. Semi-continuous variables, SOS and quadratic constraints are rejected
// with errors naming them. Rules where readers differ:
//
//   - A constraint is [name:] expr op rhs or [name:] lo op expr op hi (a ranged row;
//     both operators <= or both >=); constants on the expression side move to the
//     right-hand side (HiGHS 1.10 drops them: x - 1 >= 2 reads as x >= 2 there and as
//     x >= 3 here). Operators: <, <=, =<, >, >=, =>, =.
//   - Terms must be separated by + or -; repeated terms are summed.
//   - The objective's constant is the Problem's Offset; [ … ] / 2 is ½ of the bracket
//     (a bracket without / d counts in full).
//   - Bounds: x free, x op v, v op x, lo op x op hi, with inf, infinity, -inf; the last
//     bound given wins. A negative upper bound on a column whose lower bound was not
//     given sets the lower bound to −Inf, with a warning (the classic MPS rule; see
//     package mps).
//   - Binary makes a column integer and, when its upper bound is +Inf, gives it upper
//     bound 1 (HiGHS keeps bounds set in Bounds).
//   - Columns are numbered in order of first appearance; unnamed constraints keep an
//     empty name. A comment "\ Problem name: X" names the Problem.
//
// Every error is a *ParseError naming the line; no input makes the reader panic
// (FuzzRead checks).
package lpformat
