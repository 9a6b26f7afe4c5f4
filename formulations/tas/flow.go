package tas

import (
	"fmt"

	"github.com/coraopt/coraopt/sched"
)

// FlowSchedule returns a schedule in which job i completes by slot deadlines[i], honouring
// release times and parallelism caps, or the first resource for which none exists. Per
// resource it solves the transportation problem
//
//	source → job j (capacity η_jr) → slot t ∈ [release_j, d_j] (capacity min(max_parallel_j, C_rt)) → sink (capacity C_rt)
//
// with Dinic's max-flow algorithm; the deadlines are feasible for the resource iff the
// flow saturates every source arc. Flows of an integral network are integral, so the
// schedule is. This is exact whatever the release times and caps, at O(E·√V)-ish cost
// per resource with E up to n·T arcs, so OnionPeel uses it only when some job has
// MaxParallel.
func FlowSchedule(inst *sched.Instance, deadlines []int) (*sched.Schedule, *Violation) {
	p, err := newProblem(inst)
	if err != nil {
		return nil, &Violation{Job: -1, Reason: err.Error()}
	}
	return p.flowSchedule(deadlines)
}

// flowSchedule is FlowSchedule on p (with its per-resource releases, if any).
func (p *problem) flowSchedule(deadlines []int) (*sched.Schedule, *Violation) {
	inst := p.inst
	if v := p.checkDeadlines(deadlines); v != nil {
		return nil, v
	}
	s := sched.NewSchedule(inst)
	var net flowNet
	for r := range p.R {
		flow, want := p.buildFlow(&net, r, deadlines)
		if flow < want {
			return nil, &Violation{Slot: maxInt(deadlines), Resource: r, Demand: want, Capacity: flow, Job: -1,
				Reason: fmt.Sprintf("no schedule meets the deadlines for resource %q (max-flow %d < demand %d)",
					inst.Resources[r].Name, flow, want)}
		}
		net.extract(func(j, t int, f int64) { s.Jobs[j].Alloc[r][t-1] += int(f) })
	}
	s.Finalize(inst)
	return s, nil
}

// flowFeasible reports whether deadlines d are feasible for every resource.
func (p *problem) flowFeasible(net *flowNet, d []int) bool {
	for r := range p.R {
		if flow, want := p.buildFlow(net, r, d); flow < want {
			return false
		}
	}
	return true
}

// buildFlow builds resource r's network into net and returns the max flow and the total
// demand it must reach.
func (p *problem) buildFlow(net *flowNet, r int, d []int) (flow, want int64) {
	// Nodes: 0 source, 1 sink, 2..2+T-1 slots, then jobs.
	jobBase := 2 + p.T
	net.reset(jobBase + p.n)
	net.jobBase, net.slotBase = jobBase, 2
	for t := 1; t <= p.T; t++ {
		if c := p.cap[r][t-1]; c > 0 {
			net.addEdge(2+t-1, 1, c)
		}
	}
	for j := range p.n {
		e := p.eta[j][r]
		if e == 0 {
			continue
		}
		want += e
		net.addEdge(0, jobBase+j, e)
		for t := p.relOf(j, r); t <= d[j]; t++ {
			c := p.cap[r][t-1]
			if p.maxPar[j] > 0 {
				c = min(c, p.maxPar[j])
			}
			if c > 0 {
				net.addEdge(jobBase+j, 2+t-1, c)
			}
		}
	}
	return net.maxFlow(0, 1, want), want
}

// flowNet is an adjacency-array flow network for Dinic's algorithm, reused across solves.
type flowNet struct {
	head, next, to []int32
	capa           []int64
	level, iter    []int32
	queue          []int32
	jobBase        int
	slotBase       int
}

func (g *flowNet) reset(nodes int) {
	g.head = grow(g.head, nodes)
	for i := range g.head {
		g.head[i] = -1
	}
	g.next, g.to, g.capa = g.next[:0], g.to[:0], g.capa[:0]
	g.level = grow(g.level, nodes)
	g.iter = grow(g.iter, nodes)
}

func grow(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// addEdge adds u→v with capacity c and its residual twin (edge index e^1).
func (g *flowNet) addEdge(u, v int, c int64) {
	g.to = append(g.to, int32(v), int32(u))
	g.capa = append(g.capa, c, 0)
	g.next = append(g.next, g.head[u], g.head[v])
	e := int32(len(g.to) - 2)
	g.head[u], g.head[v] = e, e+1
}

// maxFlow runs Dinic's algorithm from s to t, stopping once limit is reached.
func (g *flowNet) maxFlow(s, t int, limit int64) int64 {
	var flow int64
	for flow < limit && g.bfs(s, t) {
		copy(g.iter, g.head)
		for flow < limit {
			f := g.dfs(s, t, limit-flow)
			if f == 0 {
				break
			}
			flow += f
		}
	}
	return flow
}

func (g *flowNet) bfs(s, t int) bool {
	for i := range g.level {
		g.level[i] = -1
	}
	g.level[s] = 0
	g.queue = append(g.queue[:0], int32(s))
	for k := 0; k < len(g.queue); k++ {
		u := g.queue[k]
		for e := g.head[u]; e >= 0; e = g.next[e] {
			if v := g.to[e]; g.capa[e] > 0 && g.level[v] < 0 {
				g.level[v] = g.level[u] + 1
				g.queue = append(g.queue, v)
			}
		}
	}
	return g.level[t] >= 0
}

// dfs pushes one blocking-flow path; the network has depth 3, so recursion is shallow.
func (g *flowNet) dfs(u, t int, f int64) int64 {
	if u == t {
		return f
	}
	for ; g.iter[u] >= 0; g.iter[u] = g.next[g.iter[u]] {
		e := g.iter[u]
		v := int(g.to[e])
		if g.capa[e] <= 0 || g.level[v] != g.level[u]+1 {
			continue
		}
		if d := g.dfs(v, t, min(f, g.capa[e])); d > 0 {
			g.capa[e] -= d
			g.capa[e^1] += d
			return d
		}
	}
	return 0
}

// extract reports the flow on every job→slot arc (the residual capacity of its twin).
func (g *flowNet) extract(emit func(j, t int, f int64)) {
	for e := 0; e < len(g.to); e += 2 {
		u, v := int(g.to[e^1]), int(g.to[e])
		if u >= g.jobBase && v >= g.slotBase && v < g.jobBase {
			if f := g.capa[e^1]; f > 0 {
				emit(u-g.jobBase, v-g.slotBase+1, f)
			}
		}
	}
}

func maxInt(xs []int) int {
	m := 0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}
