#!/usr/bin/env python3
"""EDF: every free slot goes to the runnable job with the earliest target time (its
deadline, else the time its utility names), ties in arrival order (coraopt's edf).

Target times never change, so the order of every job by target is the whole policy:
it is answered once, as a standing order the engine applies at every instant, and
the engine need not ask again nor send events (protocol 2). With the parameter
per_round (a sweep entry's "per_round": true) it decides every round instead, from
the active jobs: the same schedule, one round trip per instant.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from coraopt_policy import Decision, Policy, by_rank, give_in_order, run  # noqa: E402


class EDF(Policy):
    wake = ()
    events = ()

    def on_hello(self, state):
        self.per_round = bool(state.params.get("per_round", False))
        if self.per_round:
            self.wake = self.events = None

    def on_round(self, state):
        if self.per_round:
            # sorted is stable and active() is in rank order: ties keep arrival order.
            return give_in_order(state, sorted(state.active(), key=state.target))
        d = Decision()
        d.set_order(sorted(by_rank(state), key=state.target))
        return d


if __name__ == "__main__":
    run(EDF())
