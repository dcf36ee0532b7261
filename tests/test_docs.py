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


# ---------------------------------------------------------------- the documentation as a whole

README = ROOT / "README.md"
DOCS = ROOT / "docs"
# Pages written by other parts of the project; while one is absent, links to it are not checked
# (every other link is). Once the page exists, its links are checked like any other.
PENDING_PAGES = {DOCS / "native.md", DOCS / "rl.md"}
# [text](target) and <img src="target">, outside fenced code blocks.
MD_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HTML_SRC = re.compile(r"<(?:img|a)\b[^>]*\b(?:src|href)=\"([^\"]+)\"")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def pages() -> list[Path]:
    """Every Markdown page a reader of the repository meets: the README, the root's other pages, docs/."""
    root_pages = [ROOT / name for name in ("README.md", "CONTRIBUTING.md", "CHANGELOG.md")]
    return [p for p in root_pages if p.is_file()] + sorted(DOCS.rglob("*.md"))


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens.

    >>> slug("1.4 Options"), slug("`unotable play`")
    ('14-options', 'unotable-play')
    >>> slug("13. Resolved points and the project's own decisions")
    '13-resolved-points-and-the-projects-own-decisions'
    """
    text = re.sub(r"[`*_]|<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {slug(h) for h in HEADING.findall(text)}


def links(path: Path) -> list[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)  # inline code is not a link
    return MD_LINK.findall(text) + HTML_SRC.findall(text)


def relative_links(path: Path) -> list[tuple[str, Path, str]]:
    """(the link as written, the file it names, its anchor) for every link inside the repository."""
    found = []
    for link in links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", link) or link.startswith("//"):
            continue  # http:, https:, mailto: ...
        target, _, anchor = link.partition("#")
        resolved = (path.parent / target).resolve() if target else path
        found.append((link, resolved, anchor))
    return found


def test_the_pages_link_somewhere() -> None:
    # Guards the scan: a broken pattern would make the link test below pass vacuously.
    assert len(relative_links(README)) >= 15
    assert len(relative_links(DOCS / "index.md")) >= 15


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for link, target, anchor in relative_links(page):
        if target in PENDING_PAGES and not target.exists():
            continue
        if not target.exists():
            broken.append(f"{link}: no such file")
        elif anchor and target.suffix == ".md" and anchor not in anchors(target):
            broken.append(f"{link}: no heading #{anchor} in {target.relative_to(ROOT)}")
    assert not broken, f"{page.relative_to(ROOT)}: {broken}"


def test_every_docs_page_is_reachable_from_the_readme() -> None:
    seen, todo = {README.resolve()}, [README.resolve()]
    while todo:
        page = todo.pop()
        for _, target, _ in relative_links(page):
            if target.suffix == ".md" and target.is_file() and target not in seen:
                seen.add(target)
                todo.append(target)
    orphans = [str(p.relative_to(ROOT)) for p in DOCS.rglob("*.md") if p.resolve() not in seen]
    assert not orphans, f"pages no link leads to from README.md: {orphans}"


def test_the_readme_stays_short() -> None:
    size = len(README.read_bytes())
    assert size <= 12 * 1024, f"README.md is {size} bytes; move detail into docs/ (at most 12 KB)"


@pytest.mark.parametrize("reference", ["../shared", "shared/RULES.md", "ARCHITECTURE.md"])
def test_no_page_points_outside_the_repository(reference: str) -> None:
    pointing = [str(p.relative_to(ROOT)) for p in pages() if reference in p.read_text(encoding="utf-8")]
    assert not pointing, f"{reference!r} appears in {pointing}: a user's clone has no such file"


def test_the_api_reference_lists_every_public_name() -> None:
    import unotable

    text = (DOCS / "reference" / "python-api.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([A-Za-z_][A-Za-z0-9_]*)` \|", text, re.MULTILINE))
    missing = sorted(set(unotable.__all__) - listed)
    stale = sorted(name for name in listed - set(unotable.__all__) if not hasattr(unotable, name))
    assert not missing, f"public names of unotable without a row in docs/reference/python-api.md: {missing}"
    assert not stale, f"rows in docs/reference/python-api.md for names unotable no longer has: {stale}"


def test_research_logs_are_dated_and_indexed() -> None:
    folder = DOCS / "research"
    logs = sorted(p.name for p in folder.glob("*.md") if p.name != "index.md")
    assert logs, "docs/research/ holds no log"
    undated = [name for name in logs if not re.match(r"^\d{4}-\d{2}-\d{2}-[a-z0-9-]+\.md$", name)]
    assert not undated, f"research logs are named YYYY-MM-DD-topic.md: {undated}"
    index = (folder / "index.md").read_text(encoding="utf-8")
    unlisted = [name for name in logs if f"({name})" not in index]
    assert not unlisted, f"logs missing from docs/research/index.md: {unlisted}"
