"""ismcts's decisions judged with the true hands: which variant would have chosen better.

The script runs :func:`unotable.bots.research.decisions.main`; its options, and what it measures, are in
that module's docstring (``--help`` prints them).
"""

from __future__ import annotations

import sys

from unotable.bots.research.decisions import main

if __name__ == "__main__":
    sys.exit(main())
