"""Every contract suite against the backend a URL names, run with one command.

```bash
pytest --asyncio-mode=auto --pyargs tether.testing.contract.suite --tether-backend 'mydb://{name}'
```

``--tether-backend`` (or ``TETHER_TEST_BACKEND``) is a backend URL, opened with
`tether.open_backend` for each test: any scheme tether ships, or one an installed
package registers in the ``tether.backends`` entry point group. Each test gets a
fresh store when the URL holds ``{tmp_path}`` (replaced by the test's temporary
directory) or ``{name}`` (replaced by a name unique to the test, of lowercase letters,
digits and underscores), e.g. ``sqlite:///{tmp_path}/t.db``; a URL without either is
opened as it is, which suits a backend whose every open is a new store.

The chain tests open the URL a second time with ``hook_retention=SHORT_RETENTION``;
a backend that takes no such option skips them.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from ...errors import ConfigurationError
from ...stores import WorkflowStore, open_backend
from ._attachments import AttachmentContract
from ._budgets import BudgetContract
from ._chains import SHORT_RETENTION
from ._conversations import ConversationContract
from ._credentials import CredentialContract
from ._submissions import SubmissionContract
from ._workflow import WorkflowStoreContract

__all__ = ["TestBackendContract"]


def _url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    template = request.config.getoption("--tether-backend")
    if not template:
        pytest.fail(
            "no backend to test: pass --tether-backend URL (or set TETHER_TEST_BACKEND), "
            "e.g. --tether-backend 'sqlite:///{tmp_path}/t.db'",
            pytrace=False,
        )
    name = getattr(request.node, "_tether_store_name", None)
    if name is None:
        name = f"contract_{secrets.token_hex(6)}"
        request.node._tether_store_name = name  # the retention store opens the same one
    return str(template).replace("{tmp_path}", str(tmp_path)).replace("{name}", name)


class TestBackendContract(
    WorkflowStoreContract,
    SubmissionContract,
    ConversationContract,
    AttachmentContract,
    BudgetContract,
    CredentialContract,
):
    """Every contract suite on one backend (credentials' skip when it keeps none)."""

    @pytest.fixture
    async def backend(self, request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Any]:
        """The backend of ``--tether-backend``, migrated and connected."""
        async with open_backend(_url(request, tmp_path)) as opened:
            yield opened

    @pytest.fixture
    async def retention_store(
        self, request: pytest.FixtureRequest, tmp_path: Path
    ) -> AsyncIterator[WorkflowStore]:
        """The same store's workflow store, opened with a short hook retention."""
        try:
            opening = open_backend(_url(request, tmp_path), hook_retention=SHORT_RETENTION)
            opened = await opening.__aenter__()
        except ConfigurationError as exc:
            pytest.skip(f"the backend takes no hook_retention option: {exc}")
        try:
            yield opened.stores.workflow
        finally:
            await opening.__aexit__(None, None, None)
