package verify

import (
	"fmt"
	"strings"

	"github.com/coraopt/coraopt/sched"
)

// This file decides, independently of formulations/tas, whether jobs can meet given
// completion deadlines: per resource a transportation problem (jobs → slots → sink)
// solved by max-flow (Dinic), with a Hall witness when they cannot. The code shares
// nothing with tas's oracles on purpose: it is the second opinion.

// hallWitness proves that deadlines cannot be met: the jobs Jobs together need Demand
// units of resource Resource, but the slots they may use (release..deadline) can give
// them at most Supply = Σ_t min(C_t, Σ_{j ∈ Jobs} u_jt), u_jt = min(C_t, max_parallel_j).
type hallWitness struct {
	Resource int
	Jobs     []int
	Demand   int64
	Supply   int64
}

func (w *hallWitness) describe(in *sched.Instance) string {
	ids := make([]string, len(w.Jobs))
	for k, j := range w.Jobs {
		ids[k] = in.Jobs[j].ID
	}
	return fmt.Sprintf("jobs {%s} need %d units of %s, but the slots they may use offer them at most %d",
		strings.Join(ids, ", "), w.Demand, in.Resources[w.Resource].Name, w.Supply)
}

// unitCap is the most units of resource r job j may hold in slot t (1-based) given its
// deadline d: min(C_rt, max_parallel_j) for release ≤ t ≤ d, else 0.
func unitCap(in *sched.Instance, j, r, t, d int) int64 {
	job := &in.Jobs[j]
	if t < max(job.Release, 1) || t > d {
		return 0
	}
	c := int64(in.Resources[r].Capacity[t-1])
	if job.MaxParallel > 0 {
		c = min(c, int64(job.MaxParallel))
	}
	return max(c, 0)
}

// feasibleDeadlines reports whether every job j can receive its full demand of every
// resource within slots release_j..d[j] (d[j] = 0: never), within capacity and
// max_parallel. Resources are independent (a job's units of one resource are not tied
// to another's; only its completion slot couples them), so this is one max-flow per
// resource. When infeasible it returns a Hall witness, which supply recomputes.
func feasibleDeadlines(in *sched.Instance, d []int) (bool, *hallWitness) {
	n, T := len(in.Jobs), in.Horizon
	for r := range in.Resources {
		var total int64
		for j := range n {
			total += int64(in.Jobs[j].Demand[r])
		}
		if total == 0 {
			continue
		}
		// Nodes: 0 source, 1..n jobs, n+1..n+T slots, n+T+1 sink.
		g := newFlowGraph(n + T + 2)
		src, sink := 0, n+T+1
		for j := range n {
			if dem := int64(in.Jobs[j].Demand[r]); dem > 0 {
				g.addEdge(src, 1+j, dem)
				for t := 1; t <= T; t++ {
					if u := unitCap(in, j, r, t, d[j]); u > 0 {
						g.addEdge(1+j, n+t, u)
					}
				}
			}
		}
		for t := 1; t <= T; t++ {
			if c := int64(in.Resources[r].Capacity[t-1]); c > 0 {
				g.addEdge(n+t, sink, c)
			}
		}
		if g.maxFlow(src, sink) == total {
			continue
		}
		// The jobs reachable from the source in the residual graph form a Hall violator.
		reach := g.reachable(src)
		w := &hallWitness{Resource: r}
		for j := range n {
			if reach[1+j] {
				w.Jobs = append(w.Jobs, j)
			}
		}
		w.Demand, w.Supply = hallSides(in, r, w.Jobs, d)
		return false, w
	}
	return true, nil
}

// hallSides recomputes both sides of Hall's condition for a set of jobs: their total
// demand of resource r and Σ_t min(C_t, Σ_j u_jt).
func hallSides(in *sched.Instance, r int, jobs []int, d []int) (demand, supply int64) {
	for _, j := range jobs {
		demand += int64(in.Jobs[j].Demand[r])
	}
	for t := 1; t <= in.Horizon; t++ {
		var s int64
		for _, j := range jobs {
			s += unitCap(in, j, r, t, d[j])
		}
		supply += min(s, int64(max(in.Resources[r].Capacity[t-1], 0)))
	}
	return demand, supply
}

// flowGraph is a residual graph for Dinic's algorithm.
type flowGraph struct {
	head  []int
	next  []int
	to    []int
	cap   []int64
	level []int
	iter  []int
}

func newFlowGraph(nodes int) *flowGraph {
	g := &flowGraph{head: make([]int, nodes), level: make([]int, nodes), iter: make([]int, nodes)}
	for i := range g.head {
		g.head[i] = -1
	}
	return g
}

func (g *flowGraph) addEdge(u, v int, c int64) {
	g.to = append(g.to, v, u)
	g.cap = append(g.cap, c, 0)
	g.next = append(g.next, g.head[u], g.head[v])
	e := len(g.to) - 2
	g.head[u], g.head[v] = e, e+1
}

func (g *flowGraph) bfs(s, t int) bool {
	for i := range g.level {
		g.level[i] = -1
	}
	g.level[s] = 0
	queue := []int{s}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for e := g.head[u]; e >= 0; e = g.next[e] {
			if v := g.to[e]; g.cap[e] > 0 && g.level[v] < 0 {
				g.level[v] = g.level[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return g.level[t] >= 0
}

func (g *flowGraph) dfs(u, t int, f int64) int64 {
	if u == t {
		return f
	}
	for ; g.iter[u] >= 0; g.iter[u] = g.next[g.iter[u]] {
		e := g.iter[u]
		v := g.to[e]
		if g.cap[e] <= 0 || g.level[v] != g.level[u]+1 {
			continue
		}
		if got := g.dfs(v, t, min(f, g.cap[e])); got > 0 {
			g.cap[e] -= got
			g.cap[e^1] += got
			return got
		}
	}
	return 0
}

func (g *flowGraph) maxFlow(s, t int) int64 {
	var flow int64
	const inf = int64(1) << 62
	for g.bfs(s, t) {
		copy(g.iter, g.head)
		for {
			f := g.dfs(s, t, inf)
			if f == 0 {
				break
			}
			flow += f
		}
	}
	return flow
}

// reachable marks the nodes reachable from s in the residual graph.
func (g *flowGraph) reachable(s int) []bool {
	seen := make([]bool, len(g.head))
	seen[s] = true
	stack := []int{s}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for e := g.head[u]; e >= 0; e = g.next[e] {
			if v := g.to[e]; g.cap[e] > 0 && !seen[v] {
				seen[v] = true
				stack = append(stack, v)
			}
		}
	}
	return seen
}
