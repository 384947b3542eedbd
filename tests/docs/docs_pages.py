"""The pages of the documentation and their fenced code blocks, for the docs tests.

A block's marks come from an HTML comment on the line before it (``<!-- file: app.py
-->``, ``<!-- fragment -->``...): see `test_docs_examples`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted([ROOT / "README.md", *DOCS.rglob("*.md")])
_FENCE = re.compile(r"^(?P<indent>[ ]*)```(?P<lang>[\w+-]*)\s*$")
_MARK = re.compile(r"^\s*<!--\s*(?P<mark>[\w-]+)(?::\s*(?P<arg>\S+))?\s*-->\s*$")


@dataclass(frozen=True, kw_only=True)
class Block:
    page: Path
    line: int
    lang: str
    code: str
    marks: dict[str, str] = field(default_factory=dict)

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced code blocks of a page, with the marks of the comment before each."""
    found: list[Block] = []
    lines = page.read_text().splitlines()
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        indent = len(opening["indent"])
        start = i
        i += 1
        body: list[str] = []
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i])
            i += 1
        i += 1
        marks: dict[str, str] = {}
        before = start - 1
        while before >= 0 and lines[before].strip() == "":
            before -= 1
        mark = _MARK.match(lines[before]) if before >= 0 else None
        if mark is not None:
            marks[mark["mark"]] = mark["arg"] or ""
        found.append(
            Block(
                page=page,
                line=start + 1,
                lang=opening["lang"],
                code="\n".join(body) + "\n",
                marks=marks,
            )
        )
    return found


def files_of(page: Path) -> dict[str, str]:
    """The blocks of a page marked ``<!-- file: NAME -->``, by NAME."""
    return {b.marks["file"]: b.code for b in blocks(page) if "file" in b.marks}
