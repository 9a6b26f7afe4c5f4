package tas

import (
	"context"
	"fmt"
	"math"
)

// minCostFlow is a min-cost flow network solved by successive shortest paths: Dijkstra
// on reduced costs with node potentials (Edmonds and Karp's potentials, which keep the
// reduced costs of residual arcs non-negative), each augmentation pushing the
// bottleneck of one shortest path. Capacities are integers; costs are float64.
//
// It serves SumBound's transportation problem, whose networks are layered DAGs (source
// → jobs → chain and slot nodes → sink) with negative costs only on the job arcs; the
// initial potentials are the DAG's shortest distances, computed in the order the nodes
// were added (every arc goes from a lower node to a higher one when built).
type minCostFlow struct {
	n    int
	head []int32 // first arc out of each node, −1: none
	next []int32 // next arc out of the same node
	to   []int32
	capa []int64 // residual capacity
	cost []float64
	pot  []float64 // node potentials, less offset (the same for every node)
	// offset is added to every potential; differences, which are all that reduced costs
	// use, do not see it.
	offset float64
}

const infCap = math.MaxInt64 / 4

func newMinCostFlow(n int) *minCostFlow {
	head := make([]int32, n)
	for i := range head {
		head[i] = -1
	}
	return &minCostFlow{n: n, head: head, pot: make([]float64, n)}
}

// arc adds u → v with capacity c and cost w (and its residual twin v → u), u < v.
func (g *minCostFlow) arc(u, v int, c int64, w float64) {
	for _, a := range [2]struct {
		from, to int
		c        int64
		w        float64
	}{{u, v, c, w}, {v, u, 0, -w}} {
		g.to = append(g.to, int32(a.to))
		g.capa = append(g.capa, a.c)
		g.cost = append(g.cost, a.w)
		g.next = append(g.next, g.head[a.from])
		g.head[a.from] = int32(len(g.to) - 1)
	}
}

// arcs is the number of arcs added (without their residual twins).
func (g *minCostFlow) arcs() int { return len(g.to) / 2 }

// run sends up to want units from s to t at least cost and returns the flow sent and
// its cost. Arcs must go from lower to higher node numbers (a DAG in node order).
func (g *minCostFlow) run(ctx context.Context, s, t int, want int64) (int64, float64, error) {
	// Initial potentials: shortest distances in the DAG, nodes in increasing order.
	for v := range g.pot {
		g.pot[v] = math.Inf(1)
	}
	g.pot[s] = 0
	for u := range g.n {
		if math.IsInf(g.pot[u], 1) {
			continue
		}
		for a := g.head[u]; a >= 0; a = g.next[a] {
			if g.capa[a] > 0 {
				if v := g.to[a]; g.pot[u]+g.cost[a] < g.pot[v] {
					g.pot[v] = g.pot[u] + g.cost[a]
				}
			}
		}
	}
	for v := range g.pot {
		if math.IsInf(g.pot[v], 1) {
			g.pot[v] = 0 // unreachable: never on a path
		}
	}
	dist := make([]float64, g.n)
	prev := make([]int32, g.n) // arc into v on the shortest path
	done := make([]bool, g.n)
	for v := range dist {
		dist[v], prev[v] = math.Inf(1), -1
	}
	var touched []int32 // nodes whose dist was set in the last search
	var h distHeap
	var flow int64
	var total float64
	for iter := 0; flow < want; iter++ {
		if iter&63 == 0 {
			if err := ctx.Err(); err != nil {
				return flow, total, fmt.Errorf("tas: sum bound: %w", err)
			}
		}
		for _, v := range touched {
			dist[v], prev[v], done[v] = math.Inf(1), -1, false
		}
		touched = append(touched[:0], int32(s))
		dist[s] = 0
		h.reset()
		h.push(distItem{0, int32(s)})
		for h.len() > 0 {
			it := h.pop()
			u := int(it.v)
			if done[u] {
				continue
			}
			done[u] = true
			if u == t {
				break
			}
			for a := g.head[u]; a >= 0; a = g.next[a] {
				if g.capa[a] <= 0 {
					continue
				}
				v := int(g.to[a])
				if done[v] {
					continue
				}
				// Reduced costs are ≥ 0 up to rounding; clamping keeps Dijkstra valid.
				rc := max(0, g.cost[a]+g.pot[u]-g.pot[v])
				if d := dist[u] + rc; d < dist[v] {
					if math.IsInf(dist[v], 1) {
						touched = append(touched, int32(v))
					}
					dist[v], prev[v] = d, a
					h.push(distItem{d, int32(v)})
				}
			}
		}
		if !done[t] {
			break
		}
		// Potentials: nodes settled before t get their distance; the others the
		// distance of t (Dijkstra's early stop keeps reduced costs non-negative).
		// Adding dt to every node and then (dist − dt) ≤ 0 to the settled ones keeps the
		// sweep over all nodes out of the loop: a global offset is tracked instead.
		dt := dist[t]
		g.offset += dt
		for _, v := range touched {
			if done[v] {
				g.pot[v] += dist[v] - dt
			}
		}
		push := want - flow
		for v := t; v != s; v = int(g.to[prev[v]^1]) {
			push = min(push, g.capa[prev[v]])
		}
		for v := t; v != s; v = int(g.to[prev[v]^1]) {
			a := prev[v]
			g.capa[a] -= push
			g.capa[a^1] += push
			total += float64(push) * g.cost[a]
		}
		flow += push
	}
	return flow, total, nil
}

type distItem struct {
	d float64
	v int32
}

// distHeap is a binary min-heap of (distance, node).
type distHeap struct{ items []distItem }

func (h *distHeap) reset()   { h.items = h.items[:0] }
func (h *distHeap) len() int { return len(h.items) }

func (h *distHeap) push(it distItem) {
	h.items = append(h.items, it)
	for i := len(h.items) - 1; i > 0; {
		p := (i - 1) / 2
		if h.items[p].d <= h.items[i].d {
			break
		}
		h.items[p], h.items[i] = h.items[i], h.items[p]
		i = p
	}
}

func (h *distHeap) pop() distItem {
	top := h.items[0]
	last := len(h.items) - 1
	h.items[0] = h.items[last]
	h.items = h.items[:last]
	for i := 0; ; {
		l := 2*i + 1
		if l >= last {
			break
		}
		c := l
		if r := l + 1; r < last && h.items[r].d < h.items[l].d {
			c = r
		}
		if h.items[i].d <= h.items[c].d {
			break
		}
		h.items[i], h.items[c] = h.items[c], h.items[i]
		i = c
	}
	return top
}
