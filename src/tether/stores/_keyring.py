"""The keyring: wrapped data keys per scope, erasure records, and `DataKeys` over them.

A *scope* is what one data key protects: a session (its root run and everything under
it), a plain workflow's root run, or a stream or ledger lane written from outside any
run. Each scope has numbered *generations*; erasing a scope destroys every generation
it has and records the erasure, and anything the scope writes afterwards gets a new
generation. The keyring lives apart from the data it protects (a file beside a SQLite
store, a schema beside a Postgres namespace), so a backup of the data taken before an
erasure cannot be read once the erasure destroyed the keys.

A backup that holds the keyring too still holds the erased keys, wrapped under the
key-encryption key (KEK) of the time. *Key epochs* close that: a rotation makes a new
KEK the keyring's current one (`Keyring.begin_epoch`; from then on the keyring refuses
new data keys wrapped under any other, atomically with their insert), re-wraps every
surviving data key under it, and once the provider holds no other KEK the epoch is
complete (`Keyring.end_epoch`). The erasures recorded before the epoch began are then
beyond every backup: the only KEK that unwraps their keys is destroyed. `KeyEpoch`
counts the erasures not yet covered so.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol, runtime_checkable

from ..errors import ContentDeletedError, DecryptionError, EncryptionKeyError
from ._keys import KeyProvider
from ._sealing import DataKey

__all__ = [
    "DataKeys",
    "ErasureRecord",
    "KeyEpoch",
    "Keyring",
    "MemoryKeyring",
    "RotationReport",
    "WrappedKey",
]

#: Seconds a process trusts a data key it read before it checks the keyring again
#: (another process may have erased the scope meanwhile).
REVALIDATE_SECONDS = 1.0
_CACHE_LIMIT = 4096


@dataclass(frozen=True, slots=True, kw_only=True)
class WrappedKey:
    """One generation of a scope's data key, wrapped by the provider key `key_id`."""

    scope: str
    generation: int
    key_id: str
    wrapped: bytes
    created_at: float


@dataclass(frozen=True, slots=True, kw_only=True)
class ErasureRecord:
    """What an erasure destroyed and when: every generation of `scope` up to `through`."""

    scope: str
    through_generation: int
    erased_at: float
    note: str


@dataclass(frozen=True, slots=True, kw_only=True)
class KeyEpoch:
    """Where a keyring stands in its key epochs (see the module docstring).

    Attributes:
        current_key_id: The KEK new data keys must be wrapped with (None: any, no
            rotation since key epochs were introduced).
        beginning_key_id: The KEK of an epoch begun and not complete (None: none).
        number: Epochs completed.
        completed_at: When the last one completed (Unix seconds), or None.
        erasures: Erasures the keyring has recorded.
        covered: How many of them a completed epoch put beyond backups.
    """

    current_key_id: str | None
    beginning_key_id: str | None
    number: int
    completed_at: float | None
    erasures: int
    covered: int

    @property
    def pending_erasures(self) -> int:
        """Erasures a backup of the keyring taken before them still reverses, with the key."""
        return self.erasures - self.covered


@dataclass(frozen=True, slots=True, kw_only=True)
class RotationReport:
    """What `DataKeys.rotate` did.

    Attributes:
        key_id: The KEK every data key is wrapped with now.
        rewrapped: Data keys re-wrapped.
        remaining_key_ids: The KEKs data keys are wrapped with (just `key_id` once done).
        epoch: The key epoch after it: complete when the provider held only `key_id`.
    """

    key_id: str
    rewrapped: int
    remaining_key_ids: frozenset[str]
    epoch: KeyEpoch | None = None


@runtime_checkable
class Keyring(Protocol):
    """Where wrapped data keys and erasure records live; every write is atomic."""

    @property
    def description(self) -> str:
        """Where the keyring is, for messages."""
        ...

    async def open(self, *, create: bool) -> str:
        """Open (creating the tables when `create`) and return the keyring's id."""
        ...

    async def close(self) -> None:
        """Release connections."""
        ...

    async def latest(self, scope: str) -> tuple[WrappedKey | None, int]:
        """The scope's newest key and the highest generation erased (0: none)."""
        ...

    async def get(self, scope: str, generation: int) -> WrappedKey | None:
        """One generation's key, or None (never created, or erased)."""
        ...

    async def erasure(self, scope: str, generation: int | None = None) -> ErasureRecord | None:
        """The latest erasure of the scope (that covers `generation`, when given)."""
        ...

    async def insert(self, key: WrappedKey) -> WrappedKey | None:
        """Store a new generation unless it exists or was erased; returns the stored one.

        None when the generation was erased meanwhile.

        Raises:
            EncryptionKeyError: (reason ``"rotated"``) The keyring's current KEK is
                another than the key's (`begin_epoch`); checked in the insert's own
                transaction, so no key wrapped under an old KEK lands after it.
        """
        ...

    async def rewrap(self, key: WrappedKey, *, old_key_id: str) -> bool:
        """Replace the wrapping of one generation if it is still under `old_key_id`."""
        ...

    async def erase(self, scopes: Sequence[str], *, note: str, at: float) -> list[ErasureRecord]:
        """Destroy every generation of each scope and record it, all in one transaction."""
        ...

    async def keys_not_under(
        self, key_id: str, *, after: tuple[str, int] | None, limit: int
    ) -> list[WrappedKey]:
        """Keys wrapped by another provider key than `key_id`, in (scope, generation) order."""
        ...

    async def key_ids_in_use(self) -> frozenset[str]:
        """The provider keys some data key is wrapped with."""
        ...

    async def epoch(self) -> KeyEpoch:
        """The keyring's key epochs."""
        ...

    async def begin_epoch(self, key_id: str, *, erasures: int | None = None) -> KeyEpoch:
        """Make `key_id` the KEK new data keys must be wrapped with; begin its epoch.

        Once it returns, no insert wrapped under another KEK succeeds. An epoch begins
        only for a *fresh* KEK, one that wrapped no erased key: the caller vouches for
        it by passing `erasures`, the keyring's erasure count read before the KEK
        existed (the epoch covers those), or else no data key may be wrapped under it
        yet (the epoch covers the erasures recorded now). A KEK that is already current,
        or not fresh, begins nothing. An epoch begun and not complete (a crash) keeps
        the smaller count when another begins.
        """
        ...

    async def end_epoch(self, key_id: str, *, at: float) -> KeyEpoch:
        """Complete the epoch of `key_id` (its erasures covered); no-op if none is begun."""
        ...


class MemoryKeyring:
    """A keyring in this process's memory (for ``memory://`` and tests)."""

    def __init__(self) -> None:
        self._id = "kr_" + os.urandom(8).hex()
        self._keys: dict[tuple[str, int], WrappedKey] = {}
        self._erasures: dict[str, list[ErasureRecord]] = {}
        self._epoch = KeyEpoch(
            current_key_id=None,
            beginning_key_id=None,
            number=0,
            completed_at=None,
            erasures=0,
            covered=0,
        )
        self._baseline = 0

    @property
    def description(self) -> str:
        return "an in-memory keyring"

    async def open(self, *, create: bool) -> str:
        return self._id

    async def close(self) -> None:
        return None

    def _erased(self, scope: str) -> int:
        return max((e.through_generation for e in self._erasures.get(scope, ())), default=0)

    async def latest(self, scope: str) -> tuple[WrappedKey | None, int]:
        mine = [k for (s, _), k in self._keys.items() if s == scope]
        return max(mine, key=lambda k: k.generation, default=None), self._erased(scope)

    async def get(self, scope: str, generation: int) -> WrappedKey | None:
        return self._keys.get((scope, generation))

    async def erasure(self, scope: str, generation: int | None = None) -> ErasureRecord | None:
        found = [
            e
            for e in self._erasures.get(scope, ())
            if generation is None or e.through_generation >= generation
        ]
        return found[-1] if found else None

    async def insert(self, key: WrappedKey) -> WrappedKey | None:
        check_current(self.description, self._epoch.current_key_id, key.key_id)
        if key.generation <= self._erased(key.scope):
            return None
        return self._keys.setdefault((key.scope, key.generation), key)

    async def rewrap(self, key: WrappedKey, *, old_key_id: str) -> bool:
        current = self._keys.get((key.scope, key.generation))
        if current is None or current.key_id != old_key_id:
            return False
        self._keys[(key.scope, key.generation)] = key
        return True

    async def erase(self, scopes: Sequence[str], *, note: str, at: float) -> list[ErasureRecord]:
        out = []
        for scope in scopes:
            gens = [g for (s, g) in self._keys if s == scope]
            through = max([*gens, self._erased(scope)])
            for g in gens:
                del self._keys[(scope, g)]
            record = ErasureRecord(scope=scope, through_generation=through, erased_at=at, note=note)
            mine = self._erasures.setdefault(scope, [])
            if not any(e.through_generation == through for e in mine):
                self._epoch = replace(self._epoch, erasures=self._epoch.erasures + 1)
            mine.append(record)
            out.append(record)
        return out

    async def epoch(self) -> KeyEpoch:
        return self._epoch

    async def begin_epoch(self, key_id: str, *, erasures: int | None = None) -> KeyEpoch:
        state = self._epoch
        used = any(k.key_id == key_id for k in self._keys.values())
        step = epoch_step(state, key_id, erasures, used, self._baseline)
        if step is None:
            self._epoch = replace(state, current_key_id=key_id)
        else:
            self._baseline, begun = step
            self._epoch = replace(state, current_key_id=key_id, beginning_key_id=begun)
        return self._epoch

    async def end_epoch(self, key_id: str, *, at: float) -> KeyEpoch:
        if self._epoch.beginning_key_id == key_id:
            self._epoch = replace(
                self._epoch,
                beginning_key_id=None,
                number=self._epoch.number + 1,
                completed_at=at,
                covered=self._baseline,
            )
        return self._epoch

    async def keys_not_under(
        self, key_id: str, *, after: tuple[str, int] | None, limit: int
    ) -> list[WrappedKey]:
        keys = sorted(
            (k for k in self._keys.values() if k.key_id != key_id),
            key=lambda k: (k.scope, k.generation),
        )
        if after is not None:
            keys = [k for k in keys if (k.scope, k.generation) > after]
        return keys[:limit]

    async def key_ids_in_use(self) -> frozenset[str]:
        return frozenset(k.key_id for k in self._keys.values())


def epoch_step(
    state: KeyEpoch, key_id: str, erasures: int | None, used: bool, baseline: int | None
) -> tuple[int, str | None] | None:
    """What `Keyring.begin_epoch` records besides the current KEK.

    None leaves the begun epoch as it is; otherwise the (erasure count it will cover,
    beginning KEK or None: none begun) to record. `used` says whether a data key is
    wrapped under `key_id` already; `baseline` is the count recorded for the epoch
    begun, if one is.
    """
    if key_id in (state.beginning_key_id, state.current_key_id):
        return None  # resumed, or current already (its epoch began before, or never)
    if erasures is None:
        if used:
            return (state.covered, None)  # it may have wrapped erased keys: no epoch
        erasures = state.erasures
    if state.beginning_key_id is not None and baseline is not None:
        erasures = min(erasures, baseline)
    return (erasures, key_id)


def check_current(where: str, current: str | None, key_id: str) -> None:
    """Refuse a new data key wrapped under another KEK than the keyring's current one."""
    if current is not None and current != key_id:
        raise EncryptionKeyError(
            f"{where} takes new data keys wrapped under key {current!r} since a rotation "
            f"began; this process wraps them under {key_id!r}. Give it the rotated key file "
            "or TETHER_KEY (a key file is read again by itself) and restart it",
            reason="rotated",
        )


def _context(keyring_id: str, scope: str, generation: int) -> bytes:
    return f"tether data key/1\x00{keyring_id}\x00{scope}\x00{generation}".encode()


class DataKeys:
    """Data keys for sealing: created on first use, cached, erased, rotated.

    Args:
        keyring: Where wrapped keys live (opened).
        provider: Wraps and unwraps them.
        keyring_id: The id `Keyring.open` returned (bound into every wrap).
        clock: Seconds, for erasure records and cache ages.
    """

    def __init__(
        self,
        keyring: Keyring,
        provider: KeyProvider,
        keyring_id: str,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.keyring = keyring
        self.provider = provider
        self.keyring_id = keyring_id
        self._clock = clock
        self._write: dict[str, tuple[DataKey, float]] = {}
        self._read: dict[tuple[str, int], tuple[DataKey, float]] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def check_provider(self) -> None:
        """Refuse a provider that cannot unwrap the keys in the keyring.

        Raises:
            EncryptionKeyError: Some data key is wrapped by a key the provider lacks.
        """
        used = await self.keyring.key_ids_in_use()
        missing = used - self.provider.key_ids
        if missing:
            held = sorted(self.provider.key_ids)
            raise EncryptionKeyError(
                f"{self.keyring.description} holds data keys wrapped by key(s) "
                f"{sorted(missing)}, which the configured provider does not hold (it holds "
                f"{held}): this is not the key the store was encrypted with. Configure that "
                "key (TETHER_KEY_FILE, TETHER_KEY or keys=...); after a rotation keep the old "
                "key until `tether keys rotate` has finished",
                reason="wrong",
            )

    def _reload(self) -> bool:
        """Read the provider's keys again, if it can (a key file); whether it did.

        A rotation run by another process adds a KEK to the key file, re-wraps the data
        keys under it and drops the old one: a process started before reads it again
        when it meets a data key under a KEK it lacks, or is refused an insert.
        """
        reload = getattr(self.provider, "reload", None)
        if reload is None:
            return False
        reload()
        return True

    async def _unwrap(self, key: WrappedKey) -> DataKey:
        context = _context(self.keyring_id, key.scope, key.generation)
        try:
            material = await self.provider.unwrap(key.wrapped, key_id=key.key_id, context=context)
        except EncryptionKeyError:
            if key.key_id in self.provider.key_ids or not self._reload():
                raise
            material = await self.provider.unwrap(key.wrapped, key_id=key.key_id, context=context)
        return DataKey.derive(key.scope, key.generation, material)

    def _remember(self, cache: dict[object, tuple[DataKey, float]], k: object, v: DataKey) -> None:
        if len(cache) >= _CACHE_LIMIT:
            cache.pop(next(iter(cache)))
        cache[k] = (v, self._clock())

    def cached_for_write(self, scope: str) -> DataKey | None:
        """The scope's current key if this process holds it fresh, without awaiting."""
        cached = self._write.get(scope)
        if cached is not None and self._clock() - cached[1] < REVALIDATE_SECONDS:
            return cached[0]
        return None

    async def for_write(self, scope: str) -> DataKey:
        """The scope's current key, created on first use."""
        key = self.cached_for_write(scope)
        if key is not None:
            return key
        lock = self._locks.setdefault(scope, asyncio.Lock())
        async with lock:
            cached = self._write.get(scope)
            if cached is not None and self._clock() - cached[1] < REVALIDATE_SECONDS:
                return cached[0]
            key = await self._current(scope)
            self._remember(self._write, scope, key)  # type: ignore[arg-type]
            self._remember(self._read, (scope, key.generation), key)  # type: ignore[arg-type]
        if len(self._locks) > _CACHE_LIMIT:
            self._locks.pop(scope, None)
        return key

    async def _current(self, scope: str) -> DataKey:
        while True:
            latest, erased = await self.keyring.latest(scope)
            if latest is not None and latest.generation > erased:
                return await self._unwrap(latest)
            generation = max(erased, latest.generation if latest else 0) + 1
            material = os.urandom(32)
            key_id, wrapped = await self.provider.wrap(
                material, context=_context(self.keyring_id, scope, generation)
            )
            new = WrappedKey(
                scope=scope,
                generation=generation,
                key_id=key_id,
                wrapped=wrapped,
                created_at=self._clock(),
            )
            try:
                stored = await self.keyring.insert(new)
            except EncryptionKeyError as exc:
                # A rotation began: wrap under the new KEK if the key file has it now.
                if exc.reason != "rotated" or not self._reload():
                    raise
                if self.provider.current_key_id == key_id:
                    raise
                continue
            if stored is None:
                continue  # erased between our read and our insert: take the next one
            if stored.wrapped == wrapped:
                return DataKey.derive(scope, generation, material)
            return await self._unwrap(stored)  # another process created it first

    async def for_read(self, scope: str, generation: int, place: str) -> DataKey:
        """The key of one generation.

        Raises:
            ContentDeletedError: The generation was erased.
            DecryptionError: The keyring never held it (another keyring's data).
        """
        cached = self._read.get((scope, generation))
        if cached is not None and self._clock() - cached[1] < REVALIDATE_SECONDS:
            return cached[0]
        stored = await self.keyring.get(scope, generation)
        if stored is None:
            self._read.pop((scope, generation), None)
            erasure = await self.keyring.erasure(scope, generation)
            if erasure is not None:
                raise ContentDeletedError(
                    f"the content at {place} was erased at {erasure.erased_at:.3f} "
                    f"(key scope {scope!r}: {erasure.note}); its data key is destroyed"
                )
            raise DecryptionError(
                scope, place, f"{self.keyring.description} has no data key {generation} for it"
            )
        key = cached[0] if cached is not None else await self._unwrap(stored)
        self._remember(self._read, (scope, generation), key)  # type: ignore[arg-type]
        return key

    async def erase(self, scopes: Sequence[str], *, note: str) -> list[ErasureRecord]:
        """Destroy the data keys of `scopes` in one transaction and record the erasure.

        Everything encrypted under them becomes unreadable, wherever a copy is kept.
        """
        records = await self.keyring.erase(list(dict.fromkeys(scopes)), note=note, at=self._clock())
        for scope in scopes:
            self._write.pop(scope, None)
            for k in [k for k in self._read if k[0] == scope]:
                del self._read[k]
        return records

    async def erasure(self, scope: str) -> ErasureRecord | None:
        """The latest erasure of a scope, or None."""
        return await self.keyring.erasure(scope)

    async def rotate(
        self,
        *,
        batch: int = 100,
        on_progress: Callable[[int], None] | None = None,
        epoch_erasures: int | None = None,
    ) -> RotationReport:
        """Re-wrap every data key under the provider's current key; data is not touched.

        Each key is replaced in its own atomic write and the old key unwraps until then,
        so an interrupted rotation leaves everything readable; running it again finishes.

        Args:
            batch: Keys read per query.
            on_progress: Called with the number of keys re-wrapped so far after each
                batch (``tether keys rotate`` draws it).
            epoch_erasures: The keyring's erasure count read before the current KEK
                existed (`new_key_epoch` passes it); see `Keyring.begin_epoch`.
        """
        current = self.provider.current_key_id
        # First: no data key wrapped under another KEK lands from now on (a process with
        # an old key file is refused and reads it again), so the re-wrap below misses none.
        await self.keyring.begin_epoch(current, erasures=epoch_erasures)
        done = 0
        after: tuple[str, int] | None = None
        passes = 0
        while True:
            keys = await self.keyring.keys_not_under(current, after=after, limit=batch)
            if not keys:
                passes += 1
                if after is None or passes > 1:
                    break
                # Once more from the start: a key another process inserted before the
                # epoch began may have committed behind the scan.
                after = None
                continue
            for key in keys:
                context = _context(self.keyring_id, key.scope, key.generation)
                material = await self.provider.unwrap(
                    key.wrapped, key_id=key.key_id, context=context
                )
                key_id, wrapped = await self.provider.wrap(material, context=context)
                new = WrappedKey(
                    scope=key.scope,
                    generation=key.generation,
                    key_id=key_id,
                    wrapped=wrapped,
                    created_at=key.created_at,
                )
                if await self.keyring.rewrap(new, old_key_id=key.key_id):
                    done += 1
            after = (keys[-1].scope, keys[-1].generation)
            if on_progress is not None:
                on_progress(done)
        remaining = await self.keyring.key_ids_in_use()
        epoch = await self.complete_epoch() if remaining <= {current} else None
        return RotationReport(
            key_id=current,
            rewrapped=done,
            remaining_key_ids=remaining,
            epoch=epoch or await self.keyring.epoch(),
        )

    async def epoch(self) -> KeyEpoch:
        """The keyring's key epochs (`KeyEpoch.pending_erasures` says what a rotation owes)."""
        return await self.keyring.epoch()

    async def complete_epoch(self) -> KeyEpoch | None:
        """Complete the begun key epoch if nothing but its KEK is left; None if not yet.

        It is complete when every data key is wrapped under the current KEK and the
        provider holds no other (a key file is read again first): the KEKs that wrapped
        the erased keys in older backups are gone.
        """
        self._reload()
        current = self.provider.current_key_id
        if self.provider.key_ids != {current}:
            return None
        if not await self.keyring.key_ids_in_use() <= {current}:
            return None
        return await self.keyring.end_epoch(current, at=self._clock())
