"""What the hidden hands are worth to ismcts, and what reading the other seats' plays recovers.

The script runs :func:`unotable.bots.research.hidden_info.main`; its options, and what it measures, are in
that module's docstring (``--help`` prints them).
"""

from __future__ import annotations

import sys

from unotable.bots.research.hidden_info import main

if __name__ == "__main__":
    sys.exit(main())
