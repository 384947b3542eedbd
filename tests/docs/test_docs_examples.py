"""Every Python block of the README and of docs/ runs, so the documentation stays true.

Each page is one test: its fenced ``python`` blocks run in order, each in a fresh
interpreter, in one temporary directory of the page's own (so a block may import a
module an earlier block of the page wrote). An HTML comment on the line before a block
says what to do with it instead of running it:

- ``<!-- fragment -->``: compile it only (a piece of a larger program);
- ``<!-- file: NAME -->``: write it to NAME in the page's directory (a Python one is
  compiled, not run);
- ``<!-- postgres -->``: run it with ``DATABASE_URL`` naming the test PostgreSQL and
  ``TETHER_POSTGRES_NAMESPACE`` a namespace of its own, dropped afterwards;
- ``<!-- run -->`` before a ``bash`` block: run it too (other bash blocks do not run).

Beside the examples, the documentation's own promises are checked: every page is in
the site's navigation, every link the README gives to docs/ resolves, and every
environment variable tether reads is in the configuration reference.
"""

from __future__ import annotations

import ast
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

sys.path.insert(0, str(Path(__file__).parent))
from docs_pages import DOCS, PAGES, ROOT, Block, blocks

#: Seconds one block may take; the whole page's blocks are well under it together.
BLOCK_TIMEOUT = 90

KNOWN_MARKS = {"fragment", "file", "postgres", "run"}
RUNNABLE = [p for p in PAGES if any(b.lang in ("python", "py") for b in blocks(p))]


def _env(page_dir: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("TETHER_", "PYTEST_", "OPENAI_", "ANTHROPIC_"))
        and key not in ("DATABASE_URL", "COV_CORE_SOURCE")
    }
    bin_dir = str(Path(sys.executable).parent)
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PYTHONPATH"] = str(page_dir)
    return env


def _drop_schemas(url: str, *names: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        for name in names:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))


def _run(block: Block, cwd: Path, env: dict[str, str]) -> None:
    if block.lang in ("python", "py"):
        script = cwd / f"_block_{block.line}.py"
        script.write_text(block.code)
        argv = [sys.executable, str(script)]
    else:
        argv = ["bash", "-euo", "pipefail", "-c", block.code]
    try:
        done = subprocess.run(
            argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=BLOCK_TIMEOUT
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{block.where}: still running after {BLOCK_TIMEOUT} s\n{exc.stdout}")
    assert done.returncode == 0, (
        f"{block.where} exited {done.returncode}\n--- stdout\n{done.stdout}\n"
        f"--- stderr\n{done.stderr}"
    )


@pytest.mark.slow  # a fresh interpreter per block: the longest pages take a minute
@pytest.mark.parametrize("page", RUNNABLE, ids=lambda p: str(p.relative_to(ROOT)))
def test_page_examples_run(page: Path, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    page_blocks = blocks(page)
    env = _env(tmp_path)
    namespaces: list[str] = []
    url = ""
    try:
        for block in page_blocks:
            unknown = set(block.marks) - KNOWN_MARKS
            assert not unknown, f"{block.where}: unknown mark {unknown}"
            if "file" in block.marks:
                (tmp_path / block.marks["file"]).write_text(block.code)
            if block.lang not in ("python", "py"):
                if "run" in block.marks:
                    _run(block, tmp_path, env)
                continue
            # A fragment may be the body of an async function: top-level await compiles.
            flags = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT if "fragment" in block.marks else 0
            compile(block.code, block.where, "exec", flags=flags)
            if "file" in block.marks:
                continue
            if "fragment" in block.marks:
                continue
            block_env = env
            if "postgres" in block.marks:
                url = url or request.getfixturevalue("tether_postgres_url")
                namespaces.append(f"docs_{secrets.token_hex(5)}")
                block_env = {
                    **env,
                    "DATABASE_URL": url,
                    "TETHER_POSTGRES_NAMESPACE": namespaces[-1],
                }
            _run(block, tmp_path, block_env)
    finally:
        for namespace in namespaces:
            _drop_schemas(url, namespace, f"{namespace}_keyring")


def test_the_marks_are_known_and_used() -> None:
    marked = [b for page in PAGES for b in blocks(page) if b.marks]
    for block in marked:
        assert set(block.marks) <= KNOWN_MARKS, f"{block.where}: {block.marks}"
        if "run" in block.marks:
            assert block.lang == "bash", f"{block.where}: `run` marks bash blocks"
    python = [b for page in PAGES for b in blocks(page) if b.lang in ("python", "py")]
    # Most blocks run (files run in the tutorials' tests): a page of fragments proves
    # nothing.
    fragments = [b for b in python if "fragment" in b.marks]
    ran = [b for b in python if not {"fragment", "file"} & set(b.marks)]
    assert len(fragments) * 3 < len(ran), f"{len(fragments)} fragments, {len(ran)} blocks run"


def _nav_pages(text: str) -> set[str]:
    return set(re.findall(r"([\w./-]+\.md)\s*$", text, flags=re.MULTILINE))


def test_every_page_is_in_the_navigation() -> None:
    nav = _nav_pages((ROOT / "mkdocs.yml").read_text())
    pages = {str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")}
    assert pages - nav == set(), "pages missing from mkdocs.yml's nav"
    assert nav - pages == set(), "mkdocs.yml's nav names pages that do not exist"


def test_the_readme_links_resolve() -> None:
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", (ROOT / "README.md").read_text())
    local = [link for link in links if "://" not in link]
    assert local, "the README links to no page"
    missing = [link for link in local if not (ROOT / link).exists()]
    assert missing == []


#: Read by tether's own processes, not by users: the demo's and `tether dev`'s plumbing.
INTERNAL_VARIABLES = {"TETHER_DEMO_CALLS", "TETHER_DEMO_LOG", "TETHER_DEMO_READY"}
INTERNAL_VARIABLES |= {"TETHER_DEV_PARENT"}


def test_every_environment_variable_is_documented() -> None:
    variable = re.compile(r"\b(TETHER_[A-Z0-9_]+|[A-Z]+_(?:API_KEY|BASE_URL)|DATABASE_URL)\b")
    read = set()
    for path in (ROOT / "src" / "tether").rglob("*.py"):
        read |= set(variable.findall(path.read_text()))
    documented = (DOCS / "reference" / "configuration.md").read_text()
    missing = sorted(v for v in read - INTERNAL_VARIABLES if f"`{v}`" not in documented)
    assert missing == [], "add these to docs/reference/configuration.md"
