"""The anchors: our bots against chausner/UnoAI's published figures, under that project's rules.

The script runs :func:`unotable.bots.research.anchors.main`; its options, and what it measures, are in
that module's docstring (``--help`` prints them).
"""

from __future__ import annotations

import sys

from unotable.bots.research.anchors import main

if __name__ == "__main__":
    sys.exit(main())
