package solvertest

import (
	"math"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/certificate"
)

// Tolerances for the checkers are package solvers/certificate's: each is relative, a
// quantity of magnitude v may be off by tol·max(1, |v|).
type Tolerances = certificate.Tolerances

// DefaultTolerances are the ones Run uses for Config fields left zero.
func DefaultTolerances() Tolerances { return certificate.DefaultTolerances() }

func scale(v float64) float64 { return math.Max(1, math.Abs(v)) }

// CheckPrimal checks that sol carries a point of p's feasible set: one finite value per
// column within its bounds, Ax (recomputed from X, never taken from the Solution) within
// every row's bounds, integrality of integer columns, RowActivity (when not nil) equal to
// the recomputed Ax, and Objective equal to p.Objective(X). It returns every violation
// joined, or nil. The checks are package solvers/certificate's Primal.
func CheckPrimal(p *model.Problem, sol *solvers.Solution, tol Tolerances) error {
	return certificate.Primal(p, sol, tol).Err()
}

// CheckLPCertificate checks the dual half of an optimality certificate for a continuous
// problem (LP, or convex QP in the problem's own sense), in the convention of package
// solvers: y = RowDual is ∂z*/∂b and d = ReducedCost is the objective gradient minus Aᵀy,
// c + Qx − Aᵀy (c − Aᵀy for an LP). With σ = +1 for minimization and −1 for maximization:
//
//   - d equals c + Qx − Aᵀy recomputed here;
//   - dual feasibility and complementary slackness: σ·y_i > 0 only on a row whose finite
//     lower bound is active, σ·y_i < 0 only where the finite upper bound is active, and
//     likewise σ·d_j for column bounds (a basic or inactive row or column has y, d ≈ 0);
//   - strong duality: the objective at X equals the dual objective
//     Offset + Σ_i y_i·b_i + Σ_j d_j·β_j − ½xᵀQx, with b_i, β_j the bounds the signs select.
//
// Together with CheckPrimal this proves the point optimal within the tolerances.
// Tolerances: a multiplier may have the wrong sign by Dual·max(1, ‖c + Qx‖∞); the reduced
// cost may differ from the recomputed one by Dual·max(1, Σ|terms|); complementary
// slackness is measured as |multiplier|·(distance of the activity from the bound its sign
// selects), that row's or column's share of the duality gap, against Obj·max(1, |z|); the
// gap itself may be Obj·max(1, |z|) + Dual·Σ|selected bounds|. The checks are package
// solvers/certificate's Dual.
func CheckLPCertificate(p *model.Problem, sol *solvers.Solution, tol Tolerances) error {
	return certificate.Dual(p, sol, tol).Err()
}

// maxReported is how many violations a checker's error lists before it counts the rest
// (certificate.Result.Err's cap).
const maxReported = 8

// gradient returns c + Qx and Qx for the symmetric Q whose lower triangle p stores.
func gradient(p *model.Problem, x []float64) (grad, qx []float64) { return certificate.Gradient(p, x) }
