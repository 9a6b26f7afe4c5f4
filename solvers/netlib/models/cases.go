package models

import (
	"math"

	"github.com/coraopt/coraopt/solvers"
)

// Kind is the class of a model.
type Kind string

// Model classes.
const (
	LP  Kind = "LP"
	MIP Kind = "MIP"
	QP  Kind = "QP"
)

// Case is one model of the set with its reference answer.
type Case struct {
	Name string // short name, the subtest name ("afiro")
	File string // file name in the model directory ("afiro.mps")
	Kind Kind
	// Status is the exact answer: Optimal, Infeasible or Unbounded.
	Status solvers.Status
	// Objective is the optimum, offset included (see the package doc); NaN when Status is
	// not Optimal.
	Objective float64
	// Published is the value published with the model, in its source's convention; NaN
	// when none is.
	Published float64
	// Source says where Objective comes from.
	Source string
	// Notes records anything a reader of the table should know (discrepancies, origin).
	Notes string
	// Large marks the models that take a second or more with at least one backend here;
	// Run runs them only without -short.
	Large bool
	// SHA256 is the checksum of the file as its source distributes it (FullCollection's
	// gzipped MPS files); empty for the models of HiGHS's check set.
	SHA256 string
}

// Sources of reference values.
const (
	srcNetlib     = "Netlib lp/data readme (MINOS 5.3), agreeing with HiGHS 1.10 and lp_solve 5.5.2.5 to 1e-6"
	srcAgreement  = "agreement of HiGHS 1.10 and lp_solve 5.5.2.5 (to 1e-9 relative)"
	srcMIPLIB     = "MIPLIB 3, agreeing with HiGHS 1.10 and lp_solve 5.5.2.5 to 1e-6"
	srcHiGHSOnly  = "HiGHS 1.10, and lp_solve 5.5.2.5 within its time limit (see the backend tests)"
	srcAnalytic   = "derived by hand from the KKT conditions (see Notes), agreeing with HiGHS 1.10"
	srcInfeasible = "proved infeasible by HiGHS 1.10 and lp_solve 5.5.2.5"
	srcUnbounded  = "proved unbounded by HiGHS 1.10 and lp_solve 5.5.2.5"
)

var nan = math.NaN()

func optimal(name, file string, kind Kind, obj, published float64, source, notes string) Case {
	return Case{Name: name, File: file, Kind: kind, Status: solvers.Optimal, Objective: obj,
		Published: published, Source: source, Notes: notes}
}

func infeasible(name, file string, kind Kind, source, notes string) Case {
	return Case{Name: name, File: file, Kind: kind, Status: solvers.Infeasible, Objective: nan,
		Published: nan, Source: source, Notes: notes}
}

func unbounded(name, file string, kind Kind, source, notes string) Case {
	return Case{Name: name, File: file, Kind: kind, Status: solvers.Unbounded, Objective: nan,
		Published: nan, Source: source, Notes: notes}
}

func large(c Case) Case {
	c.Large = true
	return c
}

// Cases returns the test set, LPs first, then MIPs and QPs. The slice is new on every
// call.
func Cases() []Case {
	return []Case{
		// Feasible LPs.
		optimal("afiro", "afiro.mps", LP, -4.6475314286e+02, -4.6475314286e+02, srcNetlib, ""),
		optimal("adlittle", "adlittle.mps", LP, 2.2549496316e+05, 2.2549496316e+05, srcNetlib, ""),
		optimal("blending", "blending.mps", LP, -3.2e+03, nan, srcAgreement, "a HiGHS test model, not Netlib's BLEND"),
		optimal("sctest", "sctest.mps", LP, 5.75, nan, srcAgreement, "a HiGHS test model"),
		optimal("avgas", "avgas.mps", LP, -7.75, nan, srcAgreement, "a HiGHS test model"),
		optimal("chip", "chip.mps", LP, -9e+02, nan, srcAgreement, "a HiGHS test model"),
		optimal("dD2e", "dD2e.mps", LP, -3e+03, nan, srcAgreement, "a HiGHS test model with no rows"),
		optimal("scrs8", "scrs8.mps", LP, 9.0429695380e+02, 9.0429998619e+02, srcAgreement,
			"the published value is 3.4e-6 (relative) above the optimum both solvers find, 9.04296953801e+02"),
		optimal("israel", "israel.mps", LP, -8.9664482186e+05, -8.9664482186e+05, srcNetlib, ""),
		optimal("e226", "e226.mps", LP, -1.1638929066e+01, -1.8751929066e+01, srcNetlib,
			"the objective row has RHS −7.113, i.e. Offset +7.113: the published value excludes it (−18.751929066 + 7.113 = −11.638929066)"),
		optimal("etamacro", "etamacro.mps", LP, -7.5571521774e+02, -7.5571521774e+02, srcNetlib,
			"both solvers find −7.5571523330e+02, 2.1e-8 (relative) below the published value"),
		optimal("stair", "stair.mps", LP, -2.5126695119e+02, -2.5126695119e+02, srcNetlib, ""),
		optimal("standata", "standata.mps", LP, 1.2576995000e+03, 1.2576995000e+03, srcNetlib, ""),
		optimal("standgub", "standgub.mps", LP, 1.2576995000e+03, nan, srcAgreement,
			"the readme gives no value (\"see NOTES\"); it is STANDATA with a GUB row, same optimum"),
		optimal("standmps", "standmps.mps", LP, 1.4060175000e+03, 1.4060175000e+03, srcNetlib, ""),
		optimal("25fv47", "25fv47.mps", LP, 5.5018458883e+03, 5.5018458883e+03, srcNetlib, ""),
		large(optimal("80bau3b", "80bau3b.mps", LP, 9.8722419241e+05, 9.8723216072e+05, srcAgreement,
			"the published value is 8.1e-6 (relative) above the optimum both solvers find, 9.87224192409e+05")),
		large(optimal("greenbea", "greenbea.mps", LP, -7.2555248130e+07, -7.2462405908e+07, srcAgreement,
			"the published value is 1.3e-3 (relative) above the optimum both solvers find, −7.25552481298e+07")),
		optimal("shell", "shell.mps", LP, 1.2088253460e+09, 1.2088253460e+09, srcNetlib, ""),

		// Infeasible LPs.
		infeasible("box1", "box1.mps", LP, srcInfeasible, ""),
		infeasible("forest6", "forest6.mps", LP, srcInfeasible, ""),
		infeasible("klein1", "klein1.mps", LP, srcInfeasible, "Netlib infeasible set"),
		infeasible("refinery", "refinery.mps", LP, srcInfeasible, ""),
		infeasible("gams10am", "gams10am.mps", LP, srcInfeasible, ""),
		infeasible("galenet", "galenet.mps", LP, srcInfeasible, "Netlib infeasible set"),

		// Unbounded LPs.
		unbounded("gas11", "gas11.mps", LP, srcUnbounded, ""),

		// MIPs.
		optimal("flugpl", "flugpl.mps", MIP, 1201500, 1201500, srcMIPLIB, ""),
		optimal("egout", "egout.mps", MIP, 568.1007, 568.1007, srcMIPLIB, ""),
		large(optimal("bell5", "bell5.mps", MIP, 8966406.49152, 8966406.49, srcMIPLIB,
			"MIPLIB lists the value to 9 digits; the reference is HiGHS's optimum")),
		optimal("lseu", "lseu.mps", MIP, 1120, 1120, srcMIPLIB, ""),
		optimal("p0548", "p0548.mps", MIP, 8691, 8691, srcMIPLIB, ""),
		large(optimal("dcmulti", "dcmulti.mps", MIP, 188182, 188182, srcMIPLIB, "")),
		optimal("rgn", "rgn.mps", MIP, 82.19999924, 82.1999, srcAgreement,
			"MIPLIB 3 lists 82.1999 (rounded, 1.2e-6 relative below the optimum both solvers find)"),
		optimal("small_mip", "small_mip.mps", MIP, 3.2368421052632, nan, srcAgreement, "a HiGHS test model"),
		optimal("2171", "2171.mps", MIP, -22375.758546078, nan, srcAgreement, "a HiGHS test model"),
		optimal("sp150x300d", "sp150x300d.mps", MIP, 69, nan, srcHiGHSOnly, "a HiGHS test model"),
		large(optimal("gesa2", "gesa2.mps", MIP, 25779856.372, 25779856.372, srcMIPLIB, "")),

		// QPs (HiGHS's QP path; lp_solve has none).
		optimal("qjh", "qjh.mps", QP, -5.25, nan, srcAnalytic,
			"x = (0.5, 5, 1.5) with the row x1 + x3 ≤ 2 active, multiplier 0.5 (the optimum the model file states)"),
		optimal("qjh_qmatrix", "qjh_qmatrix.mps", QP, -5.25, nan, srcAnalytic, "qjh with the Hessian as QMATRIX (both triangles)"),
		optimal("qjh_quadobj", "qjh_quadobj.mps", QP, -5.25, nan, srcAnalytic, "qjh with the Hessian as QUADOBJ"),
		optimal("qjh_uncon", "qjh_uncon.mps", QP, -5.5, nan, srcAnalytic, "qjh without the row: stationary point x = (1, 5, 2)"),
		optimal("qjh_lp", "qjh.lp", QP, -5.25, nan, srcAnalytic, "qjh in CPLEX LP format"),
		optimal("qjh_uncon_lp", "qjh_uncon.lp", QP, -5.5, nan, srcAnalytic, "qjh_uncon in CPLEX LP format"),
		optimal("qptestnw", "qptestnw.lp", QP, -6.45, nan, srcAnalytic,
			"x = (1.4, 1.7) with x1 − 2x2 ≥ −2 active, multiplier 0.8"),
		infeasible("qpinfeasible", "qpinfeasible.lp", QP, "x1 + x2 ≥ 42 with both in [0, 10]; HiGHS 1.10 agrees", ""),
		unbounded("qpunbounded", "qpunbounded.lp", QP, "max x2 − ½x1² with x2 ≥ 0 unbounded above; HiGHS 1.10 agrees", ""),
		optimal("primal1", "primal1.mps", QP, -3.5012965733e-02, -3.5012965e-02, "Maros–Mészáros list (8 digits), agreeing with HiGHS 1.10",
			"Maros–Mészáros PRIMAL1, a convex QP (its QUADOBJ section has 324 entries), not an unbounded LP"),
	}
}
