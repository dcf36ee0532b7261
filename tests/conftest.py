"""Shared test configuration: Hypothesis profiles.

``HYPOTHESIS_PROFILE`` picks the profile (``default`` when unset); ``.ci/run`` sets ``ci``.
Both profiles build on Hypothesis's own defaults, so they mean the same whether or not the
environment looks like CI to Hypothesis (which otherwise switches to its own ``ci`` profile).
"""

from __future__ import annotations

import os

from hypothesis import settings

_builtin = settings.get_profile("default")
settings.register_profile("default", parent=_builtin, deadline=None, max_examples=30)
settings.register_profile(
    "ci", parent=_builtin, deadline=None, max_examples=100, derandomize=True, database=None, print_blob=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
