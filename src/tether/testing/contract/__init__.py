"""Backend contract suites: subclass them in a `Test*` class and provide `backend`.

```python
class TestMyBackend(SubmissionContract, ConversationContract, AttachmentContract):
    @pytest.fixture
    async def backend(self, tmp_path):
        async with open_backend(f"sqlite:///{tmp_path}/t.db") as backend:
            yield backend
```

Tests of optional behaviour carry `@requires(Capability.X)` and skip unless the
backend declares that capability.
"""

from __future__ import annotations

from ._attachments import AttachmentContract
from ._budgets import BudgetContract
from ._chains import SHORT_RETENTION, ChainContract
from ._conversations import ConversationContract
from ._credentials import CredentialContract
from ._labels import LabelContract
from ._listings import ListingContract
from ._markers import FormatStampAccess, StoredRowAccess, requires
from ._submissions import SubmissionContract
from ._workflow import WorkflowStoreContract

__all__ = [
    "SHORT_RETENTION",
    "AttachmentContract",
    "BudgetContract",
    "ChainContract",
    "ConversationContract",
    "CredentialContract",
    "FormatStampAccess",
    "LabelContract",
    "ListingContract",
    "StoredRowAccess",
    "SubmissionContract",
    "WorkflowStoreContract",
    "requires",
]
