"""Format-version stamp cases of the submission ledger contract (capability FORMAT_STAMP)."""

from __future__ import annotations

from typing import Any

import pytest

from ...errors import FormatVersionError
from ...stores import Capability, SubmissionStore
from ...stores._shared import FORMAT_VERSION, LEGACY_FORMAT_STAMPS
from ._markers import FormatStampAccess, requires
from ._submission_kit import sub_input

__all__ = ["FormatStampCases"]


class FormatStampCases:
    """Mixed into `SubmissionContract`; uses `backend`, `format_stamps`, `submissions`."""

    # -- format-version stamp ---------------------------------------------------------
    @requires(Capability.FORMAT_STAMP)
    async def test_a_fresh_store_is_stamped(
        self, backend: Any, format_stamps: FormatStampAccess
    ) -> None:
        assert await format_stamps.read_stamp() == str(FORMAT_VERSION)
        await backend.migrate()
        assert await format_stamps.read_stamp() == str(FORMAT_VERSION)

    @requires(Capability.FORMAT_STAMP)
    async def test_a_known_legacy_stamp_is_adopted(
        self, backend: Any, format_stamps: FormatStampAccess, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_direct(sub_input("kept"))
        await format_stamps.write_stamp(sorted(LEGACY_FORMAT_STAMPS)[0])
        await backend.migrate()
        assert await format_stamps.read_stamp() == str(FORMAT_VERSION)
        assert await submissions.get_submission("kept") is not None

    @requires(Capability.FORMAT_STAMP)
    async def test_an_unknown_stamp_is_refused_before_any_read_or_write(
        self, backend: Any, format_stamps: FormatStampAccess, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_direct(sub_input("kept"))
        await format_stamps.write_stamp("999")
        with pytest.raises(FormatVersionError, match="999"):
            await backend.migrate()
        with pytest.raises(FormatVersionError):
            await backend.migrate()
        assert await format_stamps.read_stamp() == "999"  # not overwritten
        await format_stamps.write_stamp(str(FORMAT_VERSION))
        assert await submissions.get_submission("kept") is not None

    @requires(Capability.FORMAT_STAMP)
    async def test_a_store_holding_data_without_a_stamp_is_refused(
        self, backend: Any, format_stamps: FormatStampAccess, submissions: SubmissionStore
    ) -> None:
        # Its tables were not made by a released tether's migrate: adopting them would
        # stamp data of a format nobody knows.
        await submissions.admit_direct(sub_input("kept"))
        await format_stamps.delete_stamp()
        assert await format_stamps.read_stamp() is None
        with pytest.raises(FormatVersionError, match="no format stamp"):
            await backend.migrate()
        assert await format_stamps.read_stamp() is None  # not stamped by the refusal
        await format_stamps.write_stamp(str(FORMAT_VERSION))
        assert await submissions.get_submission("kept") is not None

    @requires(Capability.FORMAT_STAMP)
    async def test_unstamped_product_tables_are_refused_even_empty(
        self, backend: Any, format_stamps: FormatStampAccess, submissions: SubmissionStore
    ) -> None:
        # tether's tables with no row in them and no stamp: what made them is unknown,
        # so the refusal rests on the tables, not on the data they hold.
        await format_stamps.delete_stamp()
        with pytest.raises(FormatVersionError, match="no format stamp"):
            await backend.migrate()
        assert await format_stamps.read_stamp() is None
        await format_stamps.write_stamp(str(FORMAT_VERSION))
        await backend.migrate()
        assert await submissions.get_submission("any") is None

    @requires(Capability.FORMAT_STAMP)
    async def test_a_fresh_store_is_refused_until_migrated_then_stamped_once(
        self, backend: Any, format_stamps: FormatStampAccess
    ) -> None:
        async with format_stamps.fresh() as fresh:
            with pytest.raises(FormatVersionError, match="migrat"):
                await fresh.connect()
            await fresh.migrate()
            await fresh.migrate()  # again: changes nothing
            stores = await fresh.connect()
            assert await fresh.format_stamps.read_stamp() == str(FORMAT_VERSION)
            assert await stores.submissions.get_submission("first") is None
            await stores.submissions.admit_direct(sub_input("first"))
            assert await stores.submissions.get_submission("first") is not None
