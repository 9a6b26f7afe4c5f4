"""Reference Python client of the coraopt external policy protocol (docs/protocol.md).

Standard library only. Subclass Policy, implement on_round(state) and call run():

    from coraopt_policy import Policy, Decision, run

    class MyFIFO(Policy):
        def on_round(self, state):
            d = Decision()
            for pool, free in enumerate(state.free):
                for job in state.runnable(pool):
                    n = min(free, state.runnable_tasks(job, pool))
                    d.give(job, pool, n)
                    free -= n
            return d

    if __name__ == "__main__":
        run(MyFIFO())

coraopt runs the program once per simulation (`coraopt simulate --policies
exec:NAME=CMD`) and talks JSON Lines on its standard input and output: print nothing
else to standard output; diagnostics go to standard error, which coraopt passes on.
"""

import json
import math
import sys

PROTOCOL = 2

WAITING, ACTIVE, FINISHED, REJECTED = range(4)


class Task:
    """A task that started: finish is None while it runs."""

    __slots__ = ("job", "stage", "task", "worker", "pool", "start", "finish")

    def __init__(self, job, stage, task, worker, pool, start):
        self.job, self.stage, self.task = job, stage, task
        self.worker, self.pool, self.start, self.finish = worker, pool, start, None

    @property
    def elapsed(self):
        """Observed runtime of a finished task (seconds on its worker)."""
        return self.finish - self.start


class State:
    """What the policy knows: the hello and what the messages so far told.

    hello     the hello message (workload, params, policy name)
    jobs      hello["workload"]["jobs"]; a job is its index in this list
    round     the current round's number, time the last message's simulated time
    events    the current message's events
    free      slots the engine offers this round, per pool
    finished  per job, its finished Tasks in finishing order (observed runtimes)
    running   per job, its started unfinished Tasks
    """

    def __init__(self, hello):
        self.hello = hello
        self.params = hello.get("params", {})
        w = hello["workload"]
        self.workload = w
        self.jobs = w["jobs"]
        self.pools = w["pools"]
        self.workers = w["workers"]
        n, np_ = len(self.jobs), len(self.pools)
        self.round, self.time, self.events = 0, 0.0, []
        self.free = [0] * np_
        self.finished = [[] for _ in range(n)]
        self.running = [[] for _ in range(n)]
        self.status = [WAITING] * n
        self._runnable = [[0] * np_ for _ in range(n)]
        self._active = []

    # Queries.

    def active(self):
        """Arrived, admitted, unfinished jobs in rank (arrival, id) order."""
        return list(self._active)

    def runnable_tasks(self, job, pool):
        """How many tasks job can start now in pool."""
        return self._runnable[job][pool]

    def runnable(self, pool):
        """Active jobs that can start a task in pool, in rank order."""
        return [j for j in self._active if self._runnable[j][pool] > 0]

    def free_slots(self, pool):
        """Slots of pool the engine offers this round."""
        return self.free[pool]

    def target(self, job):
        """The time job aims at: its deadline, else the time its utility names; inf if none."""
        t = self.jobs[job]["target"]
        return math.inf if t is None else t

    def time_to_deadline(self, job):
        """target(job) - now."""
        return self.target(job) - self.time

    # Updates from the engine's messages.

    def _apply(self, events):
        self.events = events
        for e in events:
            k = e["kind"]
            if k == "start":
                self.running[e["job"]].append(Task(e["job"], e["stage"], e["task"], e["worker"], e["pool"], e["time"]))
            elif k == "task_finish":
                run = self.running[e["job"]]
                for i, t in enumerate(run):
                    if t.stage == e["stage"] and t.task == e["task"]:
                        t.finish = e["time"]
                        self.finished[e["job"]].append(t)
                        del run[i]
                        break
            elif k == "arrival":
                j = e["job"]
                self.status[j] = ACTIVE
                rank = self.jobs[j]["rank"]
                i = len(self._active)
                while i > 0 and self.jobs[self._active[i - 1]]["rank"] > rank:
                    i -= 1
                self._active.insert(i, j)
            elif k in ("job_finish", "reject"):
                j = e["job"]
                self.status[j] = FINISHED if k == "job_finish" else REJECTED
                if j in self._active:
                    self._active.remove(j)
                self._runnable[j] = [0] * len(self.pools)


class Decision:
    """A round's answer: slots given to jobs (give) or container targets (set_target)."""

    def __init__(self):
        self.assign = []
        self.targets = []
        self.order = None

    def give(self, job, pool, count=1, worker=None):
        """Give count slots of pool to job this round (on worker's slots if given)."""
        if count <= 0:
            return
        a = {"job": job, "pool": pool, "count": count}
        if worker is not None:
            a["worker"] = worker
        self.assign.append(a)

    def set_target(self, job, pool, target):
        """Set job's container target in pool; the engine keeps it until changed."""
        self.targets.append({"job": job, "pool": pool, "target": target})

    def set_order(self, jobs):
        """Make jobs the standing order, kept by the engine until changed: in rounds
        without give and at instants without a round, each free slot goes to the first
        job of the order that can start a task in its pool; jobs not in it get none.
        An empty order drops it (the container targets serve again)."""
        self.order = list(jobs)


class Refuse(Exception):
    """Raise from on_hello: the policy cannot model this workload (exit 2)."""


class Policy:
    """Base class. Override on_round; optionally on_hello, on_admit, on_end.

    Attributes asked of the engine in ready (on_hello may still change them):
      admission   True: on_admit(state, job) -> bool is asked at every arrival
      tick        > 0: a round every tick seconds from 0 while jobs remain
      conserving  True: the assignment unit fills slots even for non-positive gaps
      wake        None: a round at every instant where a free slot can be used; a
                  list of event kinds ("arrival", "task_finish", "job_finish",
                  "reject", "capacity"): a round only at the first such instant,
                  at ticks and after those events; in between the standing order
                  (Decision.set_order) or the container targets serve the slots
      events      None: every event; a list of kinds: only those are sent (state
                  then knows only what they tell)
    """

    admission = False
    tick = 0
    conserving = False
    wake = None
    events = None

    def on_hello(self, state):
        pass

    def on_round(self, state):
        raise NotImplementedError

    def on_admit(self, state, job):
        return True

    def on_end(self, state):
        """Return a dict of counts to report (policy_counts), or None."""
        return None


def by_rank(state):
    """Every job (arrived or not) in rank (arrival, id) order."""
    return sorted(range(len(state.jobs)), key=lambda j: state.jobs[j]["rank"])


def give_in_order(state, order):
    """Give each pool's free slots to the jobs of order that can use them, in order."""
    d = Decision()
    for pool, free in enumerate(state.free):
        for j in order:
            if free == 0:
                break
            n = min(free, state.runnable_tasks(j, pool))
            d.give(j, pool, n)
            free -= n
    return d


def _send(out, msg):
    # One write and one flush: each system call on the pipe can wake the engine.
    out.write(json.dumps(msg, separators=(",", ":"), allow_nan=False) + "\n")
    out.flush()


def run(policy, inp=None, out=None):
    """Serve policy on the protocol until the end (standard input and output by default)."""
    inp = inp or sys.stdin
    out = out or sys.stdout
    line = inp.readline()
    if not line:
        raise SystemExit("coraopt_policy: no hello on standard input (run me through coraopt)")
    hello = json.loads(line)
    state = State(hello)
    try:
        try:
            policy.on_hello(state)
        except Refuse as r:
            _send(out, {"type": "refuse", "reason": str(r)})
            return
        ready = {"type": "ready", "protocol": PROTOCOL}
        if policy.admission:
            ready["admission"] = True
        if policy.tick:
            ready["tick"] = policy.tick
        if policy.conserving:
            ready["conserving"] = True
        if policy.wake is not None:
            ready["wake"] = list(policy.wake)
        if policy.events is not None:
            ready["events"] = list(policy.events)
        _send(out, ready)
        for line in inp:
            m = json.loads(line)
            state.time = m["time"]
            state._apply(m["events"])
            t = m["type"]
            if t == "round":
                state.round = m["round"]
                state.free = m["free"]
                for r in m["runnable"]:
                    state._runnable[r["job"]] = r["tasks"]
                d = policy.on_round(state)
                reply = {"type": "decision", "round": m["round"]}
                if d.assign:
                    reply["assign"] = d.assign
                if d.targets:
                    reply["targets"] = d.targets
                if d.order is not None:
                    reply["order"] = d.order
                _send(out, reply)
            elif t == "admit":
                ok = bool(policy.on_admit(state, m["job"]))
                _send(out, {"type": "admission", "job": m["job"], "admit": ok})
            elif t == "end":
                bye = {"type": "bye"}
                counts = policy.on_end(state)
                if counts:
                    bye["counts"] = counts
                _send(out, bye)
                return
    except Exception as e:
        _send(out, {"type": "error", "message": "%s: %s" % (type(e).__name__, e)})
        raise
