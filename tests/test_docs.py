"""docs/rules.md, the project's own rules reference, has an entry for every rule ID the tests cite.

A test cites a rule with ``@pytest.mark.rule("CL-DRAW-2", ...)`` or a ``# RULE: CL-DRAW-2`` comment.
An entry in docs/rules.md is a list item or table row that starts with the ID in bold
(``- **CL-DRAW-2** — ...``), or a heading that starts with it. The reference must stand on its own:
a user's clone has no rules contract beside it, so it must not point there.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
DOC = ROOT / "docs" / "rules.md"

RULE_ID = re.compile(r"\b[A-Z]+(?:-[A-Z]+)?-\d+\b")
MARKER = re.compile(r"@?pytest\.mark\.rule\(")
COMMENT = re.compile(r"#\s*RULE:(.*)$", re.MULTILINE)
# "- **ID**", "* **ID**", "| **ID** |" or "### ID" / "### **ID**" at the start of a line.
ENTRY = re.compile(
    r"^(?:\s*[-*]\s+\*\*|\s*\|\s*\*\*|#{1,6}\s+(?:\*\*)?)(" + RULE_ID.pattern + r")(?:\*\*)?",
    re.MULTILINE,
)


def marker_arguments(text: str) -> list[str]:
    """The argument text of every ``pytest.mark.rule(...)`` in a file, up to its matching ``)``."""
    arguments = []
    for match in MARKER.finditer(text):
        depth, end = 1, match.end()
        while end < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            end += 1
        arguments.append(text[match.end() : end - 1])
    return arguments


def cited_ids() -> dict[str, str]:
    """Every rule ID cited by a test, mapped to the first file citing it."""
    cited: dict[str, str] = {}
    for path in sorted(TESTS.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        spans = marker_arguments(text)
        spans += [m.group(1) for m in COMMENT.finditer(text)]
        for span in spans:
            for rule_id in RULE_ID.findall(span):
                cited.setdefault(rule_id, str(path.relative_to(ROOT)))
    return cited


def documented_ids() -> set[str]:
    return set(ENTRY.findall(DOC.read_text(encoding="utf-8")))


def test_the_reference_exists() -> None:
    assert DOC.is_file(), "docs/rules.md is missing"


def test_tests_cite_rules() -> None:
    # Guards the scan itself: if the citation forms changed, the check below would pass vacuously.
    assert len(cited_ids()) >= 50


def test_every_cited_rule_has_an_entry() -> None:
    documented = documented_ids()
    missing = {rule_id: where for rule_id, where in cited_ids().items() if rule_id not in documented}
    assert not missing, f"rule IDs cited by tests but without an entry in docs/rules.md: {missing}"


def test_entries_are_unique() -> None:
    ids = ENTRY.findall(DOC.read_text(encoding="utf-8"))
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    assert not duplicates, f"rule IDs with more than one entry in docs/rules.md: {duplicates}"


@pytest.mark.parametrize("reference", ["../shared", "shared/RULES.md"])
def test_the_reference_stands_alone(reference: str) -> None:
    assert reference not in DOC.read_text(encoding="utf-8")
