"""``tether keys``: create a key file, print a key, rotate a store's data keys."""

from __future__ import annotations

import argparse
import os
from dataclasses import replace
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
from ..stores._key_epochs import new_key_epoch
from ..stores._keys import remove_keys_from_file
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
    after_erasures = bool(getattr(args, "after_erasures", False))
    provider: KeyProvider | None
    if explicit:
        provider = LocalKeyFile(_key_file(args))
    else:
        if args.new_key or args.retire or after_erasures:
            raise ConfigurationError(
                "--new-key, --retire and --after-erasures change a key file; with "
                "TETHER_KEY put the new key first in the variable yourself, rotate, then "
                "drop the old one and rotate again (that completes the key epoch)"
            )
        provider = key_provider_from_env()
    assert provider is not None
    async with open_backend(url, keys=provider, migrate=False) as backend:
        assert isinstance(backend, EncryptedBackend)
        keys = backend.keys
        if after_erasures and (await keys.epoch()).pending_erasures == 0:
            print("no erasure since the last key epoch: nothing to rotate")
            return 0
        with progress("re-wrapping data keys") as done:
            if isinstance(provider, LocalKeyFile) and (args.new_key or after_erasures):
                report = await new_key_epoch(
                    keys,
                    retire=args.retire or after_erasures,
                    resume=not args.new_key,
                    on_progress=done,
                )
            else:
                report = await keys.rotate(on_progress=done)
        if args.retire and not args.new_key and isinstance(provider, LocalKeyFile):
            unused = provider.key_ids - report.remaining_key_ids - {provider.current_key_id}
            remove_keys_from_file(provider.path, frozenset(unused))
            print(f"retired {sorted(unused)} from {provider.path}")
            report = replace(report, epoch=await keys.complete_epoch() or report.epoch)
    print(
        f"re-wrapped {report.rewrapped} data key(s) under {report.key_id}; keys in use: "
        f"{sorted(report.remaining_key_ids)}"
    )
    epoch = report.epoch
    if epoch is not None:
        if epoch.beginning_key_id is None:
            print(
                f"key epoch {epoch.number} complete: {epoch.covered} erasure(s) hold against "
                f"backups of the keyring taken before them; {epoch.pending_erasures} pending"
            )
        else:
            print(
                f"key epoch begun under {epoch.beginning_key_id}, not complete: retire the "
                f"old key(s) to complete it; {epoch.pending_erasures} erasure(s) pending"
            )
    return 0
