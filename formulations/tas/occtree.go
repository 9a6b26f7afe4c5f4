package tas

// occTree indexes the container queues of MapToQueues by occupation (the end time of
// each queue's last task) so that "the first queue from k on that is free by time x"
// and "the queue that frees earliest" cost O(log C) instead of a scan of all C queues
// per job, which made the mapping O(N·C): 8 s for 100,000 jobs on 10,000 containers.
// It is exact only when every queue is open in every slot (constant capacity); with
// time-varying capacity a task may have to start later than its queue's occupation and
// MapToQueues scans instead.
type occTree struct {
	n, size int
	min     []int // min[size+k] = occupation of queue k; inner nodes hold the minimum below
}

func newOccTree(n int) *occTree {
	return (&occTree{}).reset(n)
}

// reset makes t the tree of n empty queues (every occupation 0), reusing its array.
func (t *occTree) reset(n int) *occTree {
	size := 1
	for size < n {
		size *= 2
	}
	t.n, t.size, t.min = n, size, resize(t.min, 2*size)
	clear(t.min)
	for i := n; i < size; i++ {
		t.min[size+i] = int(^uint(0) >> 1) // padding never qualifies
	}
	for i := size - 1; i >= 1; i-- {
		t.min[i] = min(t.min[2*i], t.min[2*i+1])
	}
	return t
}

// set records queue k's new occupation.
func (t *occTree) set(k, occ int) {
	i := t.size + k
	t.min[i] = occ
	for i /= 2; i >= 1; i /= 2 {
		t.min[i] = min(t.min[2*i], t.min[2*i+1])
	}
}

// firstAtMost is the smallest queue k ≥ from whose occupation is at most x, or -1.
func (t *occTree) firstAtMost(from, x int) int {
	if from >= t.n {
		return -1
	}
	return t.descend(1, 0, t.size, from, x)
}

func (t *occTree) descend(node, lo, hi, from, x int) int {
	if hi <= from || t.min[node] > x {
		return -1
	}
	if hi-lo == 1 {
		return lo
	}
	mid := (lo + hi) / 2
	if k := t.descend(2*node, lo, mid, from, x); k >= 0 {
		return k
	}
	return t.descend(2*node+1, mid, hi, from, x)
}

// argmin is the queue with the smallest occupation (the lowest index among ties), or
// -1 when there are no queues.
func (t *occTree) argmin() int {
	if t.n == 0 {
		return -1
	}
	return t.firstAtMost(0, t.min[1])
}
