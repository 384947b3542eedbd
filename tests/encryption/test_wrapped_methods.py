"""Every store method of the encrypting layer is decided: sealed, or declared payload-free.

The wrappers forward nothing implicitly: a protocol method is defined on its wrapper,
and one that passes to the inner store as it is must be named in the wrapper's
`PAYLOAD_FREE` table, whose signatures are checked to carry no payload type. A new
protocol method that is neither fails here (and a method left out raises
AttributeError: there is no catch-all forwarding).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
from typing import Generic, Protocol

import pytest

import tether.stores as stores
from tether.stores import EncryptedBackend
from tether.stores.memory import MemoryBackend

WRAPPERS = [
    ("WorkflowStore", "tether.stores._encrypted_workflow:EncryptedWorkflowStore"),
    ("SubmissionStore", "tether.stores._encrypted_agent:EncryptedSubmissionStore"),
    ("ConversationStore", "tether.stores._encrypted_agent:EncryptedConversationStore"),
    ("AttachmentStore", "tether.stores._encrypted_agent:EncryptedAttachmentStore"),
    ("CredentialStore", "tether.stores._encrypted_credentials:EncryptedCredentialStore"),
]
#: Records whose bytes are clear by design: a queue message's payload is a run id.
CLEAR_BY_DESIGN = {"Message", "NewMessage", "QueueEntry"}
_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def _protocol_methods(protocol: type) -> set[str]:
    """The methods of a protocol and of the protocols it extends."""
    found: set[str] = set()
    for base in protocol.__mro__:
        if base in (object, Protocol, Generic) or not getattr(base, "_is_protocol", False):
            continue
        found |= {n for n, v in vars(base).items() if callable(v) and not n.startswith("_")}
    return found


def _defined(cls: type) -> dict[str, object]:
    """What a wrapper defines itself or takes from its own mixins (never `object`'s)."""
    out: dict[str, object] = {}
    for base in reversed(cls.__mro__[:-1]):
        out.update(vars(base))
    return out


def _payload_free(cls: type) -> frozenset[str]:
    """The names the wrapper and its mixins declare payload-free."""
    return frozenset().union(*(vars(base).get("PAYLOAD_FREE", ()) for base in cls.__mro__))


def _wrapper(path: str) -> type:
    module, _, name = path.partition(":")
    cls: type = getattr(importlib.import_module(module), name)
    return cls


def _payload_carriers() -> set[str]:
    """The record types exported by `tether.stores` that hold payload bytes or JSON.

    A record holding bytes, a JSON value or another carrier is one (computed to a
    fixed point), except the queue's records.
    """
    records = {
        name: obj
        for name in stores.__all__
        if dataclasses.is_dataclass(obj := getattr(stores, name)) and isinstance(obj, type)
    }
    carriers = {"bytes", "bytearray", "memoryview", "JsonValue", "Any", "StoreWrite"}
    while True:
        more = {
            name
            for name, cls in records.items()
            if name not in carriers
            and name not in CLEAR_BY_DESIGN
            and any(set(_NAME.findall(str(f.type))) & carriers for f in dataclasses.fields(cls))
        }
        if not more:
            return carriers
        carriers |= more


def test_the_carriers_are_the_payload_records() -> None:
    """The fixed point finds the records that hold payloads (and not the queue's)."""
    carriers = _payload_carriers()
    for name in ("RunRecord", "StepRecord", "NewEvent", "Commit", "Claim", "Submission"):
        assert name in carriers
    assert "ConversationBatch" in carriers and "FoldCheckpoint" in carriers
    assert not carriers & CLEAR_BY_DESIGN


@pytest.mark.parametrize(("protocol", "wrapper"), WRAPPERS)
def test_every_store_method_is_sealed_or_declared_payload_free(protocol: str, wrapper: str) -> None:
    cls = _wrapper(wrapper)
    methods = _protocol_methods(getattr(stores, protocol))
    defined = _defined(cls)
    assert "__getattr__" not in defined, f"{cls.__name__} forwards what it does not define"
    missing = sorted(n for n in methods if n not in defined)
    assert not missing, (
        f"{cls.__name__} does not define {missing}: seal and open their payloads, or "
        "pass them through and name them in PAYLOAD_FREE"
    )
    free = _payload_free(cls)
    unknown = sorted(free - methods)
    assert not unknown, f"{cls.__name__}.PAYLOAD_FREE names {unknown}, not {protocol} methods"


@pytest.mark.parametrize(("protocol", "wrapper"), WRAPPERS)
def test_a_payload_free_method_carries_no_payload_type(protocol: str, wrapper: str) -> None:
    cls = _wrapper(wrapper)
    carriers = _payload_carriers()
    proto = getattr(stores, protocol)
    for name in sorted(_payload_free(cls)):
        signature = inspect.signature(getattr(proto, name))
        annotations = [str(p.annotation) for p in signature.parameters.values()]
        annotations.append(str(signature.return_annotation))
        found = sorted(set(_NAME.findall(" ".join(annotations))) & carriers)
        assert not found, (
            f"{protocol}.{name} is declared payload-free but its signature carries {found}: "
            f"seal it in {cls.__name__}"
        )


def test_the_budget_store_passed_unwrapped_carries_no_payload_type() -> None:
    """Budgets are given to the engine as the inner backend's (counters and ids)."""
    carriers = _payload_carriers()
    for name in sorted(_protocol_methods(stores.BudgetStore)):
        signature = inspect.signature(getattr(stores.BudgetStore, name))
        annotations = [str(p.annotation) for p in signature.parameters.values()]
        annotations.append(str(signature.return_annotation))
        found = sorted(set(_NAME.findall(" ".join(annotations))) & carriers)
        assert not found, f"BudgetStore.{name} carries {found}: wrap the budget store to seal it"


def test_the_backend_passes_only_its_named_extras() -> None:
    backend = EncryptedBackend(
        MemoryBackend(),
        keys=stores.EnvKeyProvider("A" * 43 + "="),
        keyring=stores.MemoryKeyring(),
    )
    assert backend.retention is None  # a named extra: the inner backend's
    with pytest.raises(AttributeError, match=r"inner\.workflow_store"):
        backend.workflow_store  # noqa: B018 - an attribute read is the test
