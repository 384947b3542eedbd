"""Snapshots of an app's source for `tether dev`: one directory per generation.

A generation is the content of the app's Python files (``*.py`` under the project
directory, outside hidden directories, virtualenvs and ``__pycache__``), hashed: the
same code is the same generation, whatever the files' times. Its snapshot is a copy of
those files under ``.tether/dev/<digest>/``, from which the generation's worker imports
the app, so editing the project never changes the code a running generation executes.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "KEEP_LAST",
    "KEEP_SECONDS",
    "Snapshot",
    "digest_tree",
    "list_snapshots",
    "mark_current",
    "mark_superseded",
    "prune_snapshots",
    "source_files",
    "take_snapshot",
]

#: Superseded snapshots are kept at least this long ...
KEEP_SECONDS = 30 * 60.0
#: ... and the newest this many of them whatever their age.
KEEP_LAST = 5

_SKIP_DIRS = frozenset({"__pycache__", "node_modules", "site-packages", "venv", "env"})
_META = "tether-generation.json"


@dataclass(frozen=True, slots=True, kw_only=True)
class Snapshot:
    """One generation's snapshot directory."""

    digest: str
    path: Path
    created_at: float
    superseded_at: float | None


def source_files(root: Path, dev_dir: Path) -> Iterator[Path]:
    """The app's source files under `root`, in a stable order."""
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        dirnames[:] = sorted(
            d
            for d in dirnames
            if not d.startswith(".")
            and d not in _SKIP_DIRS
            and not (here / d / "pyvenv.cfg").exists()
            and (here / d) != dev_dir
        )
        for name in sorted(filenames):
            if name.endswith(".py"):
                yield here / name


def digest_tree(root: Path, dev_dir: Path) -> tuple[str, dict[str, bytes]]:
    """The generation digest of the sources under `root`, and those sources by path."""
    files = {str(p.relative_to(root)): p.read_bytes() for p in source_files(root, dev_dir)}
    h = hashlib.sha256()
    for rel in sorted(files):
        data = files[rel]
        h.update(f"{rel}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()[:12], files


def take_snapshot(root: Path, dev_dir: Path) -> Snapshot:
    """Snapshot the sources under `root` (a no-op for code already snapshotted)."""
    digest, files = digest_tree(root, dev_dir)
    path = dev_dir / digest
    meta = path / _META
    if meta.exists():
        found = _read(path)
        if found is not None:
            return found
    tmp = dev_dir / f".{digest}.{os.getpid()}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    for rel, data in files.items():
        target = tmp / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    now = time.time()
    (tmp / _META).write_text(json.dumps({"created_at": now, "superseded_at": None}))
    shutil.rmtree(path, ignore_errors=True)
    # A rename: a worker never imports a half-written snapshot.
    os.replace(tmp, path)
    return Snapshot(digest=digest, path=path, created_at=now, superseded_at=None)


def _read(path: Path) -> Snapshot | None:
    try:
        meta = json.loads((path / _META).read_text())
    except (OSError, ValueError):
        return None
    superseded = meta.get("superseded_at")
    return Snapshot(
        digest=path.name,
        path=path,
        created_at=float(meta.get("created_at") or 0.0),
        superseded_at=None if superseded is None else float(superseded),
    )


def list_snapshots(dev_dir: Path) -> list[Snapshot]:
    """Every snapshot under `dev_dir`, oldest first."""
    if not dev_dir.is_dir():
        return []
    found = [_read(p) for p in dev_dir.iterdir() if p.is_dir() and not p.name.startswith(".")]
    return sorted((s for s in found if s is not None), key=lambda s: s.created_at)


def mark_superseded(snapshot: Snapshot, at: float | None = None) -> None:
    """Record that a newer generation took over new runs from `snapshot`'s (at `at`)."""
    _write_meta(snapshot, time.time() if at is None else at)


def mark_current(snapshot: Snapshot) -> None:
    """Record that `snapshot`'s generation takes new runs again (the code changed back)."""
    _write_meta(snapshot, None)


def _write_meta(snapshot: Snapshot, superseded_at: float | None) -> None:
    meta = {"created_at": snapshot.created_at, "superseded_at": superseded_at}
    (snapshot.path / _META).write_text(json.dumps(meta))


def prune_snapshots(
    dev_dir: Path,
    *,
    active: Collection[str],
    now: float | None = None,
    keep_seconds: float = KEEP_SECONDS,
    keep_last: int = KEEP_LAST,
) -> list[str]:
    """Remove superseded snapshots past retention; return the digests removed.

    A snapshot is kept while it is `active` (its generation is current, or still has
    unfinished runs), while it was superseded less than `keep_seconds` ago, and while
    it is among the newest `keep_last` superseded ones.
    """
    now = time.time() if now is None else now
    superseded = [s for s in list_snapshots(dev_dir) if s.superseded_at is not None]
    newest = {s.digest for s in superseded[-keep_last:]} if keep_last > 0 else set()
    removed = []
    for snapshot in superseded:
        assert snapshot.superseded_at is not None
        if snapshot.digest in active or snapshot.digest in newest:
            continue
        if now - snapshot.superseded_at < keep_seconds:
            continue
        shutil.rmtree(snapshot.path, ignore_errors=True)
        removed.append(snapshot.digest)
    return removed
