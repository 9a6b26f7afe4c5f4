#!/usr/bin/env python3
"""Least remaining work first, with a deadline nudge: the tutorial's heuristic
(docs/protocol.md). A job's remaining work is its pending tasks times the mean task
runtime it has shown so far (its declared mean before any task finished); a job whose
target time is closer than `urgency` seconds goes first. `urgency` comes from the
policy's parameters (a sweep file's entry), default 600."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from coraopt_policy import Policy, give_in_order, run  # noqa: E402


def mean_runtime(state, job, stage):
    done = [t.elapsed for t in state.finished[job] if t.stage == stage]
    if done:
        return sum(done) / len(done)
    rt = state.jobs[job]["stages"][stage]["runtime"]
    if rt and rt.get("type") == "fixed":
        return rt["value"]
    if rt and "mean" in rt:
        return rt["mean"]
    return 60.0


def remaining_work(state, job):
    work = 0.0
    stages = state.jobs[job]["stages"]
    started = {}
    for t in state.finished[job] + state.running[job]:
        started[t.stage] = started.get(t.stage, 0) + 1
    for s, st in enumerate(stages):
        work += (st["tasks"] - started.get(s, 0)) * mean_runtime(state, job, s)
    return work


class LeastWork(Policy):
    def on_hello(self, state):
        self.urgency = float(state.params.get("urgency", 600))

    def on_round(self, state):
        def key(j):
            urgent = state.time_to_deadline(j) < self.urgency
            return (not urgent, remaining_work(state, j))

        return give_in_order(state, sorted(state.active(), key=key))


if __name__ == "__main__":
    run(LeastWork())
