# ruff: noqa: E501
# Written by nanobind.stubgen (python -m nanobind.stubgen -m unotable_native._search): do not edit.
"""The search inside the core (native/src/search.hpp; docs/native.md)."""

from collections.abc import Sequence
from typing import Any

POLICIES: tuple = ('random', 'random-stuck', 'rule-v1', 'fast')

def search(config: dict[str, Any], deck: Sequence[int], points: Sequence[int], spec: dict[str, Any]) -> dict[str, Any]:
    """
    One decision: the chosen candidate's index and each candidate's visits and mean result.
    """

def sample(config: dict[str, Any], deck: Sequence[int], points: Sequence[int], spec: dict[str, Any], count: int) -> list:
    """Worlds as the search deals them: hands, draw pile and set-aside pile."""
