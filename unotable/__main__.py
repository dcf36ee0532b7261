"""``python3 -m unotable``: the ``unotable`` command without installing it (from a clone's root
too: the engine is the standard library only), e.g. ``python3 -m unotable verify RECORD.json``."""

import sys

from unotable.cli import main

sys.exit(main())
