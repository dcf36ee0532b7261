"""Fit the weights of ismcts's model of the other hands (:mod:`unotable.bots.handmodel`).

The script runs :func:`unotable.bots.research.fit_hands.main`; its options, and what it measures, are in
that module's docstring (``--help`` prints them).
"""

from __future__ import annotations

import sys

from unotable.bots.research.fit_hands import main

if __name__ == "__main__":
    sys.exit(main())
