"""The bot tests' loader for the scripts of benchmarks/ (a folder of scripts, not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load_benchmark(name: str) -> Any:
    """``benchmarks/NAME.py``, executed afresh as the module ``bench_NAME``. It is registered in
    ``sys.modules`` so that the functions it hands to its worker processes pickle by name."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
