"""Write unotable_native/_core.pyi, the typed stub of the compiled module (nanobind's stubgen).

Run after a change of the bindings, with the core built and nanobind installed (the dev extra):

    .venv/bin/python native/stubgen.py
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

STUB = Path(__file__).resolve().parent / "unotable_native" / "_core.pyi"


def main() -> int:
    command = [sys.executable, "-m", "nanobind.stubgen", "-q", "-m", "unotable_native._core", "-o", str(STUB)]
    subprocess.run(command, check=True)
    STUB.write_text("# ruff: noqa: E501\n# Written by native/stubgen.py (nanobind.stubgen): do not edit.\n"
                    + STUB.read_text(encoding="utf-8"), encoding="utf-8")
    subprocess.run([sys.executable, "-m", "ruff", "check", "-q", "--fix", str(STUB)], check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
