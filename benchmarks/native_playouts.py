"""ismcts's playouts in Python and on the native core: time per playout, strength at equal budgets.

The script runs :func:`unotable.bots.research.native_playouts.main`; its options, and what it
measures, are in that module's docstring (``--help`` prints them).
"""

from __future__ import annotations

import sys

from unotable.bots.research.native_playouts import main

if __name__ == "__main__":
    sys.exit(main())
