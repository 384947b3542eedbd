"""Key-encryption keys: the `KeyProvider` protocol, a local key file, an environment variable.

A provider holds key-encryption keys (KEKs) and wraps and unwraps the per-scope data
keys the keyring stores; it never sees payloads. A KMS implements the same four
members (``current_key_id``, ``key_ids``, ``wrap``, ``unwrap``) with its own key ids.

The local providers hold one or more 256-bit keys, newest first: the first wraps new
data keys, the others still unwrap the data keys wrapped before a rotation. A key's id
is derived from the key itself (an HMAC of a constant), so ids never need storing next
to the key and a wrong key is recognised by its id.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import os
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

import orjson
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from ..errors import ConfigurationError, DecryptionError, EncryptionKeyError

__all__ = [
    "DEFAULT_KEY_FILE",
    "EnvKeyProvider",
    "KeyProvider",
    "LocalKeyFile",
    "add_key_to_file",
    "generate_key",
    "init_key_file",
    "key_id_of",
    "key_provider_from_env",
    "remove_keys_from_file",
]

#: Where ``tether keys init`` writes, and where `key_provider_from_env` looks last.
DEFAULT_KEY_FILE = Path(".tether/key")
_FILE_FORMAT = 1
_KEY_BYTES = 32
_NONCE = 12


def key_id_of(key: bytes) -> str:
    """The id of a key-encryption key: ``k`` + 16 hex digits of an HMAC of a constant."""
    return "k" + hmac.digest(key, b"tether key id", "sha256")[:8].hex()


@runtime_checkable
class KeyProvider(Protocol):
    """Wraps and unwraps data keys with key-encryption keys it holds.

    ``context`` binds a wrapped key to its keyring, scope and generation: a wrapped key
    copied to another scope does not unwrap.
    """

    @property
    def current_key_id(self) -> str:
        """The key new data keys are wrapped with."""
        ...

    @property
    def key_ids(self) -> frozenset[str]:
        """Every key this provider can unwrap with (the current one included)."""
        ...

    async def wrap(self, data_key: bytes, *, context: bytes) -> tuple[str, bytes]:
        """Wrap `data_key` with the current key; returns (key id, wrapped bytes)."""
        ...

    async def unwrap(self, wrapped: bytes, *, key_id: str, context: bytes) -> bytes:
        """Unwrap bytes `wrap` returned under `key_id`.

        Raises:
            EncryptionKeyError: This provider does not hold `key_id`.
            DecryptionError: The bytes do not authenticate (altered, or other context).
        """
        ...


class _StaticKeys:
    """Keys held in memory, newest first (the shared body of the local providers)."""

    def __init__(self, keys: Sequence[bytes], *, source: str) -> None:
        if not keys:
            raise ConfigurationError(f"{source} holds no key")
        for key in keys:
            if len(key) != _KEY_BYTES:
                raise ConfigurationError(
                    f"{source} holds a {len(key)}-byte key; keys are {_KEY_BYTES} bytes "
                    "(create one with: tether keys init)"
                )
        self._source = source
        self._keys = {key_id_of(k): k for k in keys}
        self._current = key_id_of(keys[0])

    @property
    def current_key_id(self) -> str:
        return self._current

    @property
    def key_ids(self) -> frozenset[str]:
        return frozenset(self._keys)

    async def wrap(self, data_key: bytes, *, context: bytes) -> tuple[str, bytes]:
        nonce = os.urandom(_NONCE)
        sealed = AESGCM(self._keys[self._current]).encrypt(nonce, data_key, context)
        return self._current, nonce + sealed

    async def unwrap(self, wrapped: bytes, *, key_id: str, context: bytes) -> bytes:
        key = self._keys.get(key_id)
        if key is None:
            raise EncryptionKeyError(
                f"{self._source} does not hold key {key_id!r} (it holds {sorted(self._keys)}); "
                "configure the key file or TETHER_KEY the store was encrypted with",
                reason="wrong",
            )
        try:
            plain = AESGCM(key).decrypt(wrapped[:_NONCE], wrapped[_NONCE:], context)
        except (InvalidTag, ValueError) as exc:
            raise DecryptionError(
                context.decode(errors="replace"), "a wrapped data key", "the wrap fails to verify"
            ) from exc
        return plain

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._source}, keys={sorted(self._keys)})"


class LocalKeyFile(_StaticKeys):
    """Key-encryption keys in a local file (JSON, mode 0600), newest first.

    Args:
        path: The key file ``tether keys init`` wrote.

    Raises:
        ConfigurationError: The file is missing, malformed, or readable by others.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        super().__init__(_read_key_file(self.path), source=f"key file {str(self.path)!r}")

    def reload(self) -> None:
        """Read the file again (a rotation in another process changed it).

        Raises:
            ConfigurationError: The file is now missing, malformed or too open.
        """
        _StaticKeys.__init__(self, _read_key_file(self.path), source=self._source)


class EnvKeyProvider(_StaticKeys):
    """Key-encryption keys from an environment variable: base64 keys, comma-separated.

    The first is current. Set ``TETHER_KEY="$(tether keys generate)"``; to rotate, put
    the new key first and keep the old one after it until ``tether keys rotate`` ran.

    Args:
        value: The variable's value.
        name: The variable's name, for messages.
    """

    def __init__(self, value: str, *, name: str = "TETHER_KEY") -> None:
        keys = [_b64(part.strip(), name) for part in value.split(",") if part.strip()]
        super().__init__(keys, source=f"${name}")


def _b64(text: str, source: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ConfigurationError(f"{source} holds a key that is not base64: {exc}") from None


def _read_key_file(path: Path) -> list[bytes]:
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise ConfigurationError(
            f"key file {str(path)!r} does not exist; create it with: tether keys init "
            f"--key-file {path}"
        ) from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ConfigurationError(
            f"key file {str(path)!r} is accessible by other users (mode {stat.S_IMODE(mode):04o}); "
            f"restrict it with: chmod 600 {path}"
        )
    try:
        doc = orjson.loads(path.read_bytes())
        if doc.get("tether_key_file") != _FILE_FORMAT or not isinstance(doc.get("keys"), list):
            raise ValueError("not a tether key file")
        return [_b64(str(k), f"key file {str(path)!r}") for k in doc["keys"]]
    except (orjson.JSONDecodeError, ValueError, AttributeError) as exc:
        raise ConfigurationError(f"key file {str(path)!r} is malformed: {exc}") from None


def _write_key_file(path: Path, keys: Sequence[bytes]) -> None:
    """Replace the file atomically: a crash leaves the old file or the new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    body = orjson.dumps(
        {"tether_key_file": _FILE_FORMAT, "keys": [base64.b64encode(k).decode() for k in keys]},
        option=orjson.OPT_INDENT_2,
    )
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, body)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def init_key_file(path: str | Path = DEFAULT_KEY_FILE) -> LocalKeyFile:
    """Create a key file holding one new random key, readable by its owner only (0600).

    Raises:
        ConfigurationError: The file exists already (it is never overwritten).
    """
    target = Path(path)
    if target.exists():
        raise ConfigurationError(
            f"key file {str(target)!r} exists already; it is never overwritten (losing it "
            "makes every store encrypted with it unreadable)"
        )
    _write_key_file(target, [os.urandom(_KEY_BYTES)])
    return LocalKeyFile(target)


def add_key_to_file(path: str | Path) -> LocalKeyFile:
    """Put a new random key first in a key file (it becomes current); keep the others."""
    target = Path(path)
    _write_key_file(target, [os.urandom(_KEY_BYTES), *_read_key_file(target)])
    return LocalKeyFile(target)


def remove_keys_from_file(path: str | Path, key_ids: frozenset[str]) -> LocalKeyFile:
    """Drop keys from a key file (never the current one)."""
    target = Path(path)
    keys = _read_key_file(target)
    kept = [k for i, k in enumerate(keys) if i == 0 or key_id_of(k) not in key_ids]
    _write_key_file(target, kept)
    return LocalKeyFile(target)


def key_provider_from_env(env: Mapping[str, str] | None = None) -> KeyProvider | None:
    """The provider the environment configures, or None.

    ``TETHER_KEY`` (base64 keys) first, then ``TETHER_KEY_FILE`` (a key file path),
    then `DEFAULT_KEY_FILE` (``.tether/key``, what ``tether keys init`` writes) when it
    exists.
    """
    env = os.environ if env is None else env
    if env.get("TETHER_KEY"):
        return EnvKeyProvider(env["TETHER_KEY"])
    if env.get("TETHER_KEY_FILE"):
        return LocalKeyFile(env["TETHER_KEY_FILE"])
    if DEFAULT_KEY_FILE.exists():
        return LocalKeyFile(DEFAULT_KEY_FILE)
    return None


def generate_key() -> str:
    """A new random key, base64 (for ``TETHER_KEY``)."""
    return base64.b64encode(os.urandom(_KEY_BYTES)).decode()
