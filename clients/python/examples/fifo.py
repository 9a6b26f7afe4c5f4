#!/usr/bin/env python3
"""FIFO: every free slot goes to the earliest-arrived job that can use it (coraopt's fifo)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from coraopt_policy import Policy, give_in_order, run  # noqa: E402


class FIFO(Policy):
    def on_round(self, state):
        return give_in_order(state, state.active())


if __name__ == "__main__":
    run(FIFO())
