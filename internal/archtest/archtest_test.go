package archtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/coraopt/coraopt"

// pkg is what `go list -json` says of a package.
type pkg struct {
	ImportPath string
	Name       string
	Dir        string
	GoFiles    []string
	CgoFiles   []string
	Imports    []string
	Deps       []string
}

// rel is a package path relative to the module ("policies/rds").
func rel(path string) string { return strings.TrimPrefix(strings.TrimPrefix(path, module), "/") }

// under reports whether p is dir or one of its subpackages (module-relative paths).
func under(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

// listModule runs `go list -json` on every package of the module (plain build: the
// rules hold without build tags; the tagged files live in the backends themselves).
func listModule(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", module+"/...")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("go list: %v\n%s", err, errb.String())
	}
	var pkgs []pkg
	dec := json.NewDecoder(&out)
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages; expected the whole module", len(pkgs))
	}
	return pkgs
}

// concreteBackends are the packages that implement a solver, and solvers/all, which
// links every one of them.
var concreteBackends = []string{"solvers/simplex", "solvers/qp", "solvers/mip", "solvers/highs",
	"solvers/lpsolve", "solvers/gonumlp", "solvers/all"}

// TestImportRules pins rules 1 and 2 of the package documentation on the package graph.
func TestImportRules(t *testing.T) {
	pkgs := listModule(t)
	var seenPolicy, seenWorkload bool
	for _, p := range pkgs {
		path := rel(p.ImportPath)
		if under(path, "policies") {
			seenPolicy = true
			for _, d := range p.Deps {
				if slices.Contains(concreteBackends, rel(d)) {
					t.Errorf("rule 1: %s links the concrete backend %s (via %s); reach backends through solve and solvers.Select",
						path, rel(d), importChain(pkgs, p, d))
				}
			}
		}
		if under(path, "workload") {
			seenWorkload = true
			for _, d := range p.Deps {
				if strings.HasPrefix(d, module+"/") && under(rel(d), "policies") {
					t.Errorf("rule 2: %s depends on %s (via %s); generators must not import schedulers",
						path, rel(d), importChain(pkgs, p, d))
				}
			}
		}
	}
	if !seenPolicy || !seenWorkload {
		t.Fatalf("go list listed no policies/* (%v) or no workload/* (%v) package", seenPolicy, seenWorkload)
	}
}

// importChain is one import path from p to dep, for the message.
func importChain(pkgs []pkg, p pkg, dep string) string {
	byPath := map[string]pkg{}
	for _, q := range pkgs {
		byPath[q.ImportPath] = q
	}
	prev := map[string]string{p.ImportPath: ""}
	queue := []string{p.ImportPath}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur == dep {
			var chain []string
			for at := cur; at != ""; at = prev[at] {
				chain = append(chain, rel(at))
			}
			slices.Reverse(chain)
			return strings.Join(chain, " → ")
		}
		for _, imp := range byPath[cur].Imports {
			if _, ok := prev[imp]; !ok {
				prev[imp] = cur
				queue = append(queue, imp)
			}
		}
	}
	return "?"
}

// runsAFormulation says whether a package's exported functions are subject to rule 3.
func runsAFormulation(path string) bool {
	return under(path, "formulations") || path == "lexmax"
}

// dispatchAllowed lists, per function (package-relative "formulations/tas.BuildMIP"),
// the packages other than solve that may call it, and why.
var dispatchAllowed = map[string][]string{
	// verify's independent checks of onion peeling: the schedule as a point of the
	// MIP (onion-in-mip), the max-min level on every MIP backend, infeasibility on
	// every MIP backend. The registry's mip method itself runs through solve.
	"formulations/tas.BuildMIP": {"verify"},
}

// TestFormulationDispatchOnlyInSolve pins rule 3: it finds the exported functions of
// formulations/* and lexmax whose signature mentions model.Model, model.Problem or
// solvers.Solver, then every call of one outside solve, the formulations and lexmax.
func TestFormulationDispatchOnlyInSolve(t *testing.T) {
	pkgs := listModule(t)
	entries := map[string]map[string]bool{} // import path → entry function names
	for _, p := range pkgs {
		if !runsAFormulation(rel(p.ImportPath)) {
			continue
		}
		files := parseFiles(t, p)
		// Types of the package that carry a model or a solver (cora.LP, tas.MIP) make
		// a function returning or taking them an entry too.
		carriers := map[string]bool{}
		for _, f := range files {
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.TYPE {
					continue
				}
				for _, s := range g.Specs {
					ts := s.(*ast.TypeSpec)
					if mentionsSolverTypes(f, ts.Type, nil) {
						carriers[ts.Name.Name] = true
					}
				}
			}
		}
		names := map[string]bool{}
		for _, f := range files {
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Recv != nil || !fn.Name.IsExported() {
					continue
				}
				if mentionsSolverTypes(f, fn.Type, carriers) {
					names[fn.Name.Name] = true
				}
			}
		}
		entries[p.ImportPath] = names
	}
	for _, must := range []string{"formulations/cora.BuildFinal", "formulations/cora.BuildLinearized",
		"formulations/tas.BuildMIP", "formulations/rds.SolveRHCWith", "formulations/rds.RunStep", "lexmax.Solve"} {
		i := strings.LastIndex(must, ".")
		if !entries[module+"/"+must[:i]][must[i+1:]] {
			t.Fatalf("the entry finder missed %s; its rule no longer sees what it should", must)
		}
	}
	for _, p := range pkgs {
		path := rel(p.ImportPath)
		if path == "solve" || runsAFormulation(path) {
			continue
		}
		for _, f := range parseFiles(t, p) {
			local := map[string]string{} // local name → import path of an entry package
			for _, imp := range f.Imports {
				ip, _ := strconv.Unquote(imp.Path.Value)
				if _, ok := entries[ip]; !ok {
					continue
				}
				name := filepath.Base(ip)
				if imp.Name != nil {
					name = imp.Name.Name
				}
				local[name] = ip
			}
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				x, ok := sel.X.(*ast.Ident)
				if !ok || x.Obj != nil { // x.Obj != nil: a local variable, not a package
					return true
				}
				ip, ok := local[x.Name]
				if !ok || !entries[ip][sel.Sel.Name] {
					return true
				}
				fn := rel(ip) + "." + sel.Sel.Name
				if slices.Contains(dispatchAllowed[fn], path) {
					return true
				}
				t.Errorf("rule 3: %s calls %s at %s; run formulations through solve",
					path, fn, positionOf(f, sel, p))
				return true
			})
		}
	}
}

var fset = token.NewFileSet()

func parseFiles(t *testing.T, p pkg) []*ast.File {
	t.Helper()
	var out []*ast.File
	for _, name := range append(slices.Clone(p.GoFiles), p.CgoFiles...) {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, 0)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, f)
	}
	return out
}

func positionOf(_ *ast.File, n ast.Node, p pkg) string {
	pos := fset.Position(n.Pos())
	return fmt.Sprintf("%s/%s:%d", rel(p.ImportPath), filepath.Base(pos.Filename), pos.Line)
}

// mentionsSolverTypes reports whether a type expression names model.Model,
// model.Problem or solvers.Solver (with the file's import names), or one of the
// package's own carrier types.
func mentionsSolverTypes(f *ast.File, expr ast.Node, carriers map[string]bool) bool {
	want := map[string][]string{module + "/model": {"Model", "Problem"}, module + "/solvers": {"Solver"}}
	local := map[string][]string{}
	for _, imp := range f.Imports {
		ip, _ := strconv.Unquote(imp.Path.Value)
		if names, ok := want[ip]; ok {
			name := filepath.Base(ip)
			if imp.Name != nil {
				name = imp.Name.Name
			}
			local[name] = names
		}
	}
	found := false
	ast.Inspect(expr, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && slices.Contains(local[x.Name], n.Sel.Name) {
				found = true
			}
			return false
		case *ast.Ident:
			found = found || carriers[n.Name]
		}
		return !found
	})
	return found
}
