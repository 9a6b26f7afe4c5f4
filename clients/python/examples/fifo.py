#!/usr/bin/env python3
"""FIFO: every free slot goes to the earliest-arrived job that can use it (coraopt's fifo).

The order of every job by arrival is the whole policy: it is answered once, as a
standing order, and the engine need not ask again nor send events (protocol 2). With
the parameter per_round it decides every round instead, from the active jobs.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from coraopt_policy import Decision, Policy, by_rank, give_in_order, run  # noqa: E402


class FIFO(Policy):
    wake = ()
    events = ()

    def on_hello(self, state):
        self.per_round = bool(state.params.get("per_round", False))
        if self.per_round:
            self.wake = self.events = None

    def on_round(self, state):
        if self.per_round:
            return give_in_order(state, state.active())
        d = Decision()
        d.set_order(by_rank(state))
        return d


if __name__ == "__main__":
    run(FIFO())
