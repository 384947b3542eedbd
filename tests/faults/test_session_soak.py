"""Sessions under faults: many sessions, many messages, SIGKILLs and connection cuts.

Worker processes (`session_app.py`, lease 2 s) and the client reach Postgres through a
fault-injecting proxy. Concurrent senders open sessions and send each of them messages
one after another (each with its own ``client_message_id``, sent again after an outage
or a timeout), while a follower per session reads its event stream from the start.
Meanwhile, until the last message is settled, one fault strikes every ~2 s (by default): a worker
is SIGKILLed (and another started) or every connection is cut for up to 2.5 s.

At the end every admitted message must be settled exactly once, and every follower
must have seen every event of its session once, in order (its copy equals the stream as
read back). Settled means ``completed`` (one ``turn.completed`` for it in its session's
stream and none for anything else, its tool run, the ledger's submission settled), or
``failed`` because the faults spent the retry budget of the step that carried it: each
durable step is attempted at most 4 times, and a SIGKILL or a lease lost in a cut
longer than the lease is an attempt. Such a failure is settled once, with the reason
(its turn ended ``turn.failed``, or its session's opening failed), never by a
``turn.completed``, and the soak counts them; a failure for any other reason fails the
soak. A message that settles within the time limit in neither way fails the soak with
what its session was doing.

``TETHER_SESSION_SOAK_SESSIONS``, ``..._MESSAGES`` (per session), ``..._SENDERS``,
``..._WORKERS``, ``..._FAULTS`` (``0`` for none), ``..._FAULT_EVERY`` (mean
seconds between faults) and ``..._TIMEOUT`` (seconds for the whole soak) change the size;
`bench/session_soak.py` runs a bigger one.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import tether
from tether.agent import AgentHost, Session, SessionEvent
from tether.errors import SessionClosedError, StoreUnavailableError
from tether.testing import FaultProxy

sys.path.insert(0, str(Path(__file__).parent))
import session_app
from fleet import Fleet

pytestmark = pytest.mark.crash

SESSIONS = int(os.environ.get("TETHER_SESSION_SOAK_SESSIONS", "250"))
MESSAGES = int(os.environ.get("TETHER_SESSION_SOAK_MESSAGES", "8"))
SENDERS = int(os.environ.get("TETHER_SESSION_SOAK_SENDERS", "32"))
WORKERS = int(os.environ.get("TETHER_SESSION_SOAK_WORKERS", "2"))
FAULTS = os.environ.get("TETHER_SESSION_SOAK_FAULTS", "1") != "0"
#: How long one message may take to finish, faults included.
MESSAGE_TIMEOUT = float(os.environ.get("TETHER_SESSION_SOAK_MESSAGE_TIMEOUT", "300"))
#: Mean seconds between two faults.
FAULT_EVERY = float(os.environ.get("TETHER_SESSION_SOAK_FAULT_EVERY", "2.0"))
#: The whole soak's time limit, in seconds.
SOAK_TIMEOUT = int(os.environ.get("TETHER_SESSION_SOAK_TIMEOUT", "900"))
#: What the error of a message the faults failed says: its step's budget was spent.
FAULT_FAILURES = ("retry budget is spent", "is unavailable")
ENV = {"LEASE": "2", "CONCURRENCY": "32", "POLL": "0.05", "DEAD_AFTER": "5"}


def sid(n: int) -> str:
    return f"soak{n:06d}"


async def _retrying(make: Any, deadline: float) -> Any:
    """`make()` again while the store is unreachable (an outage, a cut)."""
    while True:
        try:
            return await make()
        except (StoreUnavailableError, OSError):
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)


class Followed:
    """One session's follower: every event it saw, and which messages completed."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.events: list[SessionEvent] = []
        self.completed: collections.Counter[str] = collections.Counter()
        self.failed: collections.Counter[str] = collections.Counter()
        self.session_failed = False
        self.changed = asyncio.Event()
        self.task = asyncio.ensure_future(self._follow())

    async def _follow(self) -> None:
        start = 0
        while True:
            try:
                async for event in self.session.events(start):
                    assert event.index == start, (self.session.session_id, event.index, start)
                    self.events.append(event)
                    start = event.index + 1
                    if event.type == "turn.completed":
                        self.completed[event.data.submission_id] += 1  # type: ignore[union-attr]
                        self.changed.set()
                    elif event.type == "turn.failed":
                        self.failed[event.data.submission_id] += 1  # type: ignore[union-attr]
                        self.changed.set()
                    elif event.type == "session.failed":
                        self.session_failed = True
                        self.changed.set()
                return
            except (StoreUnavailableError, OSError):
                # A follower resumes where it stopped: what it saw stays seen once.
                await asyncio.sleep(0.2)

    async def until_settled(self, submission_id: str, timeout: float) -> bool:
        """Wait for the message to end its turn; whether it completed."""
        deadline = time.monotonic() + timeout
        while not self.completed[submission_id]:
            if self.failed[submission_id] or self.session_failed:
                return False
            self.changed.clear()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(submission_id)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(remaining, 1.0))
        return True


async def _diagnosis(host: AgentHost, session_id: str) -> str:
    try:
        session = await host.get_session(session_id)
        progress = await host.session_progress(session_id)
        events = await session.read_events(-6)
        last = [(e.index, e.type) for e in events]
        return f"{session_id}: {progress.state}: {progress.reason}; last events {last}"
    except Exception as exc:  # what the session looks like is all this is for
        return f"{session_id}: no diagnosis ({type(exc).__name__}: {exc})"


async def _failure(host: AgentHost, submission_id: str) -> str:
    """The error a failed message was settled with (it settles with its turn's end)."""
    store = host.backend.stores.submissions
    deadline = time.monotonic() + 60
    while True:
        sub = await _retrying(functools.partial(store.get_submission, submission_id), deadline)
        if sub is not None and sub.status == "settled":
            assert sub.outcome == "failed", (submission_id, sub)
            error = sub.error or ""
            assert any(f in error for f in FAULT_FAILURES), (submission_id, error)
            return error
        assert time.monotonic() < deadline, f"{submission_id}: failed, never settled"
        await asyncio.sleep(0.2)


async def soak(url: str, namespace: str, log_dir: Path, seed: int = 1) -> str:
    """Run the soak on the Postgres at `url` (in `namespace`); returns its summary."""
    rng = random.Random(seed)
    with FaultProxy.for_url(url) as proxy:
        fleet = Fleet(
            proxy.url(url),
            log_dir,
            env={"NAMESPACE": namespace, **ENV},
            app=Path(session_app.__file__),
        )
        async with tether.open_backend(proxy.url(url), namespace=namespace, pool_size=4) as be:
            host = AgentHost(be, session_app.agents)
            for _ in range(WORKERS):
                fleet.start()
            todo: asyncio.Queue[int] = asyncio.Queue()
            for n in range(SESSIONS):
                todo.put_nowait(n)
            followed: dict[str, Followed] = {}
            sent: dict[str, list[str]] = {}
            lost: list[str] = []
            failed: dict[str, str] = {}  # submission id -> its error
            counts: collections.Counter[str] = collections.Counter()
            done = asyncio.Event()
            started = time.monotonic()

            async def one(n: int) -> None:
                deadline = time.monotonic() + MESSAGE_TIMEOUT * MESSAGES
                session = await _retrying(
                    lambda: host.open_session("soak", session_id=sid(n), owner=f"t{n % 7}"),
                    deadline,
                )
                follower = followed[sid(n)] = Followed(session)
                ids = sent[sid(n)] = []
                for m in range(MESSAGES):
                    try:
                        submission = await _retrying(
                            functools.partial(
                                session.send,
                                f"{sid(n)} {m}",
                                client_message_id=f"m{m}",
                                principal="p",
                            ),
                            deadline,
                        )
                    except SessionClosedError:
                        assert follower.session_failed, f"{sid(n)}: closed, never failed"
                        break  # its opening failed: sends are refused from now on
                    ids.append(submission)
                    try:
                        if not await follower.until_settled(submission, MESSAGE_TIMEOUT):
                            failed[submission] = await _failure(host, submission)
                    except TimeoutError:
                        why = await _diagnosis(host, sid(n))
                        lost.append(f"{submission} never completed; {why}")
                        return
                    if follower.session_failed:
                        break
                # Its follower has seen each of its messages end: check it, stop it.
                counts.update(await _check_session(host, follower, ids, failed))
                follower.task.cancel()

            async def sender() -> None:
                while not todo.empty():
                    await one(todo.get_nowait())

            async def chaos() -> collections.Counter[str]:
                struck: collections.Counter[str] = collections.Counter()
                while FAULTS and not done.is_set():
                    with contextlib.suppress(TimeoutError):
                        spread = rng.uniform(0.4, 1.6) * FAULT_EVERY
                        await asyncio.wait_for(done.wait(), spread)
                        break
                    for _ in range(WORKERS - len(fleet.live())):
                        fleet.start()
                    if rng.random() < 0.5:
                        struck["kill"] += 1
                        fleet.kill(rng.choice(fleet.live()))
                        fleet.start()
                    else:
                        struck["cut"] += 1
                        proxy.cut()
                        await asyncio.sleep(rng.choice([0.3, 1.0, 2.5]))
                        proxy.restore()
                for _ in range(WORKERS - len(fleet.live())):
                    fleet.start()
                return struck

            try:
                faults = asyncio.ensure_future(chaos())
                await asyncio.gather(*(sender() for _ in range(SENDERS)))
                done.set()
                struck = await faults
                elapsed = time.monotonic() - started
                assert not lost, f"{len(lost)} messages never completed:\n" + "\n".join(lost[:10])
                summary = _check_tools(sent, failed, counts, log_dir)
            finally:
                done.set()
                for follower in followed.values():
                    follower.task.cancel()
                await asyncio.gather(*(f.task for f in followed.values()), return_exceptions=True)
                fleet.stop()
    messages = sum(len(ids) for ids in sent.values())
    return (
        f"session soak (postgres): {SESSIONS} sessions x {MESSAGES} messages, {messages} sent, "
        f"{SENDERS} senders, {WORKERS} workers, faults {dict(struck)}; {elapsed:.1f}s "
        f"({messages / elapsed:.0f} messages/s); {summary}"
    )


def _tool_log(log_dir: Path) -> list[str]:
    return [line for p in log_dir.glob("tools-*.log") for line in p.read_text().splitlines()]


async def _check_session(
    host: AgentHost, follower: Followed, ids: list[str], failed: dict[str, str]
) -> collections.Counter[str]:
    """One session's messages each settled once; its follower saw its stream once."""
    session_id = follower.session.session_id
    # Each message completed exactly once, or failed and never completed; nothing else
    # completed.
    done = [i for i in ids if i not in failed]
    assert follower.completed == collections.Counter(dict.fromkeys(done, 1)), session_id
    assert all(follower.failed[i] <= 1 for i in ids), (session_id, follower.failed)
    submissions = host.backend.stores.submissions
    for submission_id in ids:
        sub = await _retrying(
            functools.partial(submissions.get_submission, submission_id), time.monotonic() + 60
        )
        assert sub is not None and sub.status == "settled", (submission_id, sub)
        outcome = "failed" if submission_id in failed else "completed"
        assert sub.outcome == outcome, (submission_id, sub.outcome, sub.error)
    # The follower saw every event once, in order: its copy is the stream's start.
    stream = await _retrying(
        functools.partial(follower.session.read_events, 0), time.monotonic() + 60
    )
    seen = [(e.index, e.type) for e in follower.events]
    assert seen == [(e.index, e.type) for e in stream][: len(seen)], session_id
    assert [e.index for e in stream] == list(range(len(stream))), session_id
    return collections.Counter(events=len(follower.events), messages=len(ids))


def _check_tools(
    sent: dict[str, list[str]],
    failed: dict[str, str],
    counts: collections.Counter[str],
    log_dir: Path,
) -> str:
    """Every completed message's tool ran (at least once: a crash may run it again)."""
    ran: set[tuple[str, int]] = set()
    runs = 0
    for line in _tool_log(log_dir):
        session, n, _ = line.split()
        ran.add((session, int(n)))
        runs += 1
    for session_id, ids in sent.items():
        for m, submission_id in enumerate(ids):
            if submission_id not in failed:
                assert (session_id, m) in ran, f"{submission_id}: its tool never ran"
    messages = sum(len(ids) for ids in sent.values())
    assert counts["messages"] == messages
    reasons = collections.Counter(
        next(f for f in FAULT_FAILURES if f in error) for error in failed.values()
    )
    return (
        f"every message settled once: {messages - len(failed)} completed, {len(failed)} "
        f"failed as the faults spent their step's retry budget {dict(reasons)}; "
        f"{counts['events']} events followed once each; "
        f"{len(ran)} messages ran their tool, {runs - len(ran)} tool runs repeated after a crash"
    )


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.timeout(SOAK_TIMEOUT)
async def test_every_admitted_message_completes_once_under_kills_and_cuts(
    pg_url: str, pg_namespace: str, tmp_path: Path
) -> None:
    print("\n" + await soak(pg_url, pg_namespace, tmp_path))
