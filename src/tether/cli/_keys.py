"""``tether keys``: create a key file, print a key, rotate a store's data keys."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from ..errors import ConfigurationError
from ..stores import (
    DEFAULT_KEY_FILE,
    EncryptedBackend,
    KeyProvider,
    LocalKeyFile,
    generate_key,
    init_key_file,
    key_provider_from_env,
    open_backend,
)
from ..stores._keys import add_key_to_file, remove_keys_from_file
from ._terminal import progress

__all__ = ["keys_command"]


def _key_file(args: argparse.Namespace) -> Path:
    return Path(args.key_file or os.environ.get("TETHER_KEY_FILE") or DEFAULT_KEY_FILE)


async def keys_command(args: argparse.Namespace, url: str) -> int:
    """Run one ``tether keys`` subcommand."""
    if args.keys == "generate":
        print(generate_key())
        return 0
    if args.keys == "init":
        created = init_key_file(_key_file(args))
        print(f"created key file {created.path} (mode 0600, key {created.current_key_id})")
        print("keep it safe and out of the data's backups: without it the data is unreadable")
        return 0
    explicit = args.key_file is not None or "TETHER_KEY" not in os.environ
    provider: KeyProvider | None
    if explicit:
        path = _key_file(args)
        provider = add_key_to_file(path) if args.new_key else LocalKeyFile(path)
    else:
        if args.new_key or args.retire:
            raise ConfigurationError(
                "--new-key and --retire change a key file; with TETHER_KEY put the new key "
                "first in the variable yourself, rotate, then drop the old one"
            )
        provider = key_provider_from_env()
    assert provider is not None
    async with open_backend(url, keys=provider, migrate=False) as backend:
        assert isinstance(backend, EncryptedBackend)
        with progress("re-wrapping data keys") as done:
            report = await backend.keys.rotate(on_progress=done)
    print(
        f"re-wrapped {report.rewrapped} data key(s) under {report.key_id}; keys in use: "
        f"{sorted(report.remaining_key_ids)}"
    )
    if args.retire and isinstance(provider, LocalKeyFile):
        unused = provider.key_ids - report.remaining_key_ids - {provider.current_key_id}
        remove_keys_from_file(provider.path, frozenset(unused))
        print(f"retired {sorted(unused)} from {provider.path}")
    return 0
