"""A key epoch with a key file: a new KEK, every data key re-wrapped, the old KEKs destroyed.

`new_key_epoch` is what ``tether keys rotate --new-key --retire`` (and, when erasures
are pending, ``--after-erasures``) runs. Each step can be killed and run again:

1. a new key is put first in the key file (atomically: the old file or the new one);
   a run resumed after a kill reuses the key of the epoch the keyring says is begun,
   if the file holds it;
2. the keyring takes it as its current KEK (`Keyring.begin_epoch`): inserts wrapped
   under any other are refused from then on, and processes with the old file read it
   again;
3. every data key is re-wrapped under it, one atomic write each (`DataKeys.rotate`);
4. the other keys are dropped from the key file (their only copy here: destroyed) and
   the epoch is complete (`Keyring.end_epoch`).

Until step 4 the file holds both keys, so a kill anywhere leaves everything readable.
After it, a backup of the keyring taken before the epoch began holds the erased keys
wrapped only under KEKs that no longer exist.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..errors import ConfigurationError
from ._keyring import DataKeys, RotationReport
from ._keys import LocalKeyFile, add_key_to_file, remove_keys_from_file

__all__ = ["new_key_epoch"]


async def new_key_epoch(
    keys: DataKeys,
    *,
    retire: bool = True,
    resume: bool = True,
    batch: int = 100,
    on_progress: Callable[[int], None] | None = None,
) -> RotationReport:
    """Begin (or resume) a key epoch on a key file and, with `retire`, complete it.

    Args:
        keys: The store's data keys; their provider must be a `LocalKeyFile`.
        retire: Drop the old keys from the key file once nothing uses them (step 4);
            without it the epoch stays begun until a later run retires them.
        resume: Go on with the epoch the keyring says is begun when the key file's
            current key is its key (after a kill, say); False always adds a new key.
        batch: Keys read per query (as for `DataKeys.rotate`).
        on_progress: As for `DataKeys.rotate`.

    Raises:
        ConfigurationError: The provider is not a key file (with ``TETHER_KEY`` or a
            KMS: make the new key current there, ``tether keys rotate``, then remove the
            old key there and rotate again).
    """
    provider = keys.provider
    if not isinstance(provider, LocalKeyFile):
        raise ConfigurationError(
            "a new key epoch changes a key file, and this store's keys come from "
            f"{provider!r}: put a new key first there, run `tether keys rotate`, remove "
            "the old key, then run `tether keys rotate` again to complete the epoch"
        )
    path = Path(provider.path)
    provider.reload()
    state = await keys.epoch()
    erasures: int | None = None
    begun = state.beginning_key_id
    if not resume or begun is None or begun != provider.current_key_id:
        # Counted before the key exists: every erasure counted wrapped nothing under it.
        erasures = state.erasures
        add_key_to_file(path)
        provider.reload()
    report = await keys.rotate(batch=batch, on_progress=on_progress, epoch_erasures=erasures)
    if not retire or not report.remaining_key_ids <= {report.key_id}:
        return report
    remove_keys_from_file(path, provider.key_ids - {report.key_id})
    epoch = await keys.complete_epoch()
    return RotationReport(
        key_id=report.key_id,
        rewrapped=report.rewrapped,
        remaining_key_ids=report.remaining_key_ids,
        epoch=epoch or report.epoch,
    )
