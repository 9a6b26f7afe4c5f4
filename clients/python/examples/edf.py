#!/usr/bin/env python3
"""EDF: every free slot goes to the runnable job with the earliest target time (its
deadline, else the time its utility names), ties in arrival order (coraopt's edf)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from coraopt_policy import Policy, give_in_order, run  # noqa: E402


class EDF(Policy):
    def on_round(self, state):
        # sorted is stable and active() is in rank order: ties keep arrival order.
        order = sorted(state.active(), key=state.target)
        return give_in_order(state, order)


if __name__ == "__main__":
    run(EDF())
