"""Repository-level pytest configuration.

``--doctest-modules`` imports every module under ``unotable/``. The subpackages that need an
optional extra (``unotable/server`` needs the ``server`` extra, ``unotable/env`` the ``rl`` extra)
are left out of collection unless every requirement of that extra, as declared in
pyproject.toml, is installed. An extra not declared yet counts as not installed.
"""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent

# subpackage glob (relative to this file) -> the extra it needs
OPTIONAL_SUBPACKAGES = {
    "unotable/server/*": "server",
    "unotable/env/*": "rl",
    "unotable/env/onnx_policy.py": "onnx",  # onnxruntime (and onnx for its example)
}


def _requirement_name(requirement: str) -> str:
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    return match.group(1) if match else requirement.strip()


def _extra_installed(extra: str) -> bool:
    with (ROOT / "pyproject.toml").open("rb") as f:
        extras = tomllib.load(f).get("project", {}).get("optional-dependencies", {})
    if extra not in extras:
        return False
    for requirement in extras[extra]:
        try:
            metadata.version(_requirement_name(requirement))
        except metadata.PackageNotFoundError:
            return False
    return True


collect_ignore_glob = [
    pattern for pattern, extra in OPTIONAL_SUBPACKAGES.items() if not _extra_installed(extra)
]
