"""The keyring: wrapped data keys per scope, erasure records, and `DataKeys` over them.

A *scope* is what one data key protects: a session (its root run and everything under
it), a plain workflow's root run, or a stream or ledger lane written from outside any
run. Each scope has numbered *generations*; erasing a scope destroys every generation
it has and records the erasure, and anything the scope writes afterwards gets a new
generation. The keyring lives apart from the data it protects (a file beside a SQLite
store, a schema beside a Postgres namespace), so a backup of the data taken before an
erasure cannot be read once the erasure destroyed the keys.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ..errors import ContentDeletedError, DecryptionError, EncryptionKeyError
from ._keys import KeyProvider
from ._sealing import DataKey

__all__ = [
    "DataKeys",
    "ErasureRecord",
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
class RotationReport:
    """What `DataKeys.rotate` did."""

    key_id: str
    rewrapped: int
    remaining_key_ids: frozenset[str]


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


class MemoryKeyring:
    """A keyring in this process's memory (for ``memory://`` and tests)."""

    def __init__(self) -> None:
        self._id = "kr_" + os.urandom(8).hex()
        self._keys: dict[tuple[str, int], WrappedKey] = {}
        self._erasures: dict[str, list[ErasureRecord]] = {}

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
            self._erasures.setdefault(scope, []).append(record)
            out.append(record)
        return out

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

    async def _unwrap(self, key: WrappedKey) -> DataKey:
        material = await self.provider.unwrap(
            key.wrapped,
            key_id=key.key_id,
            context=_context(self.keyring_id, key.scope, key.generation),
        )
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
            stored = await self.keyring.insert(
                WrappedKey(
                    scope=scope,
                    generation=generation,
                    key_id=key_id,
                    wrapped=wrapped,
                    created_at=self._clock(),
                )
            )
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
        self, *, batch: int = 100, on_progress: Callable[[int], None] | None = None
    ) -> RotationReport:
        """Re-wrap every data key under the provider's current key; data is not touched.

        Each key is replaced in its own atomic write and the old key unwraps until then,
        so an interrupted rotation leaves everything readable; running it again finishes.

        Args:
            batch: Keys read per query.
            on_progress: Called with the number of keys re-wrapped so far after each
                batch (``tether keys rotate`` draws it).
        """
        current = self.provider.current_key_id
        done = 0
        after: tuple[str, int] | None = None
        while True:
            keys = await self.keyring.keys_not_under(current, after=after, limit=batch)
            if not keys:
                break
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
        return RotationReport(
            key_id=current, rewrapped=done, remaining_key_ids=await self.keyring.key_ids_in_use()
        )
