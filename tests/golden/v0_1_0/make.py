"""Write the golden fixtures of tether 0.1.0: journals as this release stores them.

Run it with tether 0.1.0 installed, from the repository's root::

    python tests/golden/v0_1_0/make.py [postgresql://postgres@127.0.0.1:5432/test]

Only the release that wrote them may write them again: a later release must not run
this script (its fixtures would then test nothing about journals written before it);
a new release records a set of its own, in a directory of its own.

It writes, next to itself:

- ``journal.db``: a SQLite store, unencrypted;
- ``encrypted.db`` and ``encrypted.db.keyring``: the same work in an encrypted SQLite
  store, its data keys in the keyring, wrapped by the key-encryption key in ``key``;
- ``postgres.sql``, ``postgres-encrypted.sql``: plain-SQL dumps (``pg_dump --inserts``)
  of the Postgres namespaces the same work was written to (`NAMESPACE` and
  `ENCRYPTED_NAMESPACE`, with their ``_keyring`` schemas for the encrypted one), psql
  meta-commands left out; load one into a fresh namespace by renaming the namespace in
  the text;
- ``manifest.json``: per store kind, what the store held when recorded (`snapshot`)
  and what finishing it gave under this release (`finish_all` on a copy).

Each store holds: workflow runs (``orders-1`` completed, its ``charge`` step retried
once; ``nap-1`` asleep on a timer; ``hooked-1`` parked on a hook; ``family-1`` waiting
for its children, one completed and one asleep; ``chain-1`` a continue-as-new chain,
its third run asleep) and agent sessions (``ops-done`` two finished turns with tool
calls and session state; ``ops-parked`` a turn parked on an approval; ``lead-1`` a
finished turn that handed a task to the ``researcher`` agent; ``notes-1`` compacted
into a second run after two turns).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

import app_0_1_0 as app  # noqa: E402
import finish_0_1_0 as finish  # noqa: E402

import tether  # noqa: E402
from tether._version import ENGINE_VERSION  # noqa: E402
from tether.agent import AgentHost  # noqa: E402
from tether.errors import NotFoundError  # noqa: E402
from tether.stores import init_key_file  # noqa: E402

#: The Postgres namespaces written, then dumped (and dropped).
NAMESPACE = "golden_0_1_0"
ENCRYPTED_NAMESPACE = "sealed_0_1_0"
DEFAULT_PG_URL = "postgresql://postgres@127.0.0.1:5432/test"


async def _until(check: Any, what: str) -> None:
    for _ in range(500):
        try:
            if await check():
                return
        except NotFoundError:  # not started yet
            pass
        await asyncio.sleep(0.01)
    raise TimeoutError(what)


async def record(backend: tether.Backend) -> None:
    """Leave in `backend` the runs and sessions the module docstring lists."""
    app._charge_attempts.clear()  # each store's `charge` fails once
    agents = app.build()
    host = AgentHost(backend, agents)
    async with host.worker(poll_interval=0.02):
        done = await host.open_session("ops", session_id="ops-done")
        await done.send("lookup api", principal="ada")
        first = await done.wait_for("turn.completed")
        await done.send("visit", principal="ada")
        await done.wait_for("turn.completed", after=first.index)
        lead = await host.open_session("lead", session_id="lead-1")
        await lead.send("delegate db health", principal="ada")
        await lead.wait_for("turn.completed")
        notes = await host.open_session("notes", session_id="notes-1")
        await notes.send(f"remember: {app.SECRET}", principal="ada")
        first = await notes.wait_for("turn.completed")
        await notes.send("m2", principal="ada")
        await notes.wait_for("session.moved", after=first.index)
        parked = await host.open_session("ops", session_id="ops-parked")
        await parked.send("restart api", principal="ada")
        await parked.wait_for("input.requested")
        client = host.client
        await client.start("orders", "o-1", app.SECRET, run_id="orders-1")
        await (await client.get("orders-1")).result(timeout=30)
        # The timers run for `app.SLEEP`: everything below ends well before they fire.
        await client.start("nap", 20, run_id="nap-1")
        await client.start("hooked", "the release", run_id="hooked-1")
        await client.start("family", 3, run_id="family-1")
        await client.start("counter", 0, 0, run_id="chain-1")

        async def parked_on(run_id: str, *, timers: int = 0, hooks: int = 0) -> bool:
            progress = await client.progress(run_id)
            return (
                progress.holder is None
                and len(progress.timers) >= timers
                and progress.hooks >= hooks
                and not progress.steps
            )

        async def settled() -> bool:
            latest = await client.latest("chain-1")
            leaf = await client.get("family-1.leaf", follow=False)
            return (
                await parked_on("nap-1", timers=1)
                and await parked_on("hooked-1", hooks=1)
                and await parked_on("family-1.nap", timers=1)
                and await leaf.status() == "completed"
                and await parked_on("family-1")
                and latest.generation == 2
                and await parked_on(latest.run_id, timers=1)
            )

        await _until(settled, "the workflow runs to park")
        await asyncio.sleep(0.2)  # the session runs' last events after their turns


def _tidy_sqlite(path: Path) -> None:
    import sqlite3

    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with sqlite3.connect(path) as conn:
        conn.execute("VACUUM")
    for extra in ("-wal", "-shm"):
        Path(f"{path}{extra}").unlink(missing_ok=True)


def _drop(url: str, *schemas: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        for schema in schemas:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def _dump(url: str, namespace: str, target: Path, *, encrypted: bool) -> None:
    schemas = [namespace, f"{namespace}_keyring"] if encrypted else [namespace]
    out = subprocess.run(
        [
            "pg_dump",
            "--dbname",
            url,
            *(f"--schema={s}" for s in schemas),
            "--inserts",
            "--no-owner",
            "--no-privileges",
            "--no-comments",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    # psql meta-commands (\restrict ...) are not SQL; a loader runs the rest as is.
    text = "\n".join(line for line in out.splitlines() if not line.startswith("\\"))
    target.write_text(text + "\n")


async def _manifest_entry(url: str, keys: Path | None, **options: Any) -> dict[str, Any]:
    async with tether.open_backend(url, keys=keys, **options) as backend:
        recorded = await finish.snapshot(backend, app.build())
        finished = await finish.finish_all(backend, app.build())
    return {"recorded": recorded, "finished": finished}


async def main(pg_url: str) -> None:
    for name in ("journal.db", "encrypted.db", "encrypted.db.keyring", "key"):
        (HERE / name).unlink(missing_ok=True)
    key = HERE / "key"
    init_key_file(key)
    manifest: dict[str, Any] = {"tether": ENGINE_VERSION, "secret": app.SECRET, "stores": {}}
    for name, keys in (("journal.db", None), ("encrypted.db", key)):
        target = HERE / name
        async with tether.open_backend(f"sqlite:///{target}", keys=keys) as backend:
            await record(backend)
        _tidy_sqlite(target)
        with tempfile.TemporaryDirectory() as scratch:
            copy = Path(scratch) / name
            shutil.copy(target, copy)
            if keys is not None:
                shutil.copy(f"{target}.keyring", f"{copy}.keyring")
            entry = await _manifest_entry(f"sqlite:///{copy}", keys)
        manifest["stores"][name] = entry
    for namespace, dump, keys in (
        (NAMESPACE, "postgres.sql", None),
        (ENCRYPTED_NAMESPACE, "postgres-encrypted.sql", key),
    ):
        schemas = (namespace, f"{namespace}_keyring")
        _drop(pg_url, *schemas)
        async with tether.open_backend(pg_url, keys=keys, namespace=namespace) as backend:
            await record(backend)
        _dump(pg_url, namespace, HERE / dump, encrypted=keys is not None)
        entry = await _manifest_entry(pg_url, keys, namespace=namespace)
        _drop(pg_url, *schemas)
        manifest["stores"][dump] = {"namespace": namespace, **entry}
    (HERE / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    os.environ.pop("TETHER_KEY", None)
    os.environ.pop("TETHER_KEY_FILE", None)
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_PG_URL))
