"""Every exception tether raises, in one tree.

```
TetherError
├─ ConfigurationError          misuse found when things are defined or opened
│  ├─ MissingExtraError        an optional dependency is not installed
│  ├─ InvalidInputError        a value no backend can store alike (NUL in an id, ...)
│  └─ EncryptionKeyError       the store's encryption key is missing or not the right one
├─ StoreError                  the persistence layer refused an operation or failed
│  ├─ StoreUnavailableError    it could not be reached or could not write now: retried
│  ├─ NotFoundError            the named record does not exist
│  │  └─ ContentDeletedError   the content existed and was deleted by retention
│  ├─ ConflictError            same identity, other content; never an overwrite
│  │  ├─ HookTokenInUseError   an active hook owns that token, or its chain still retains it
│  │  └─ StaleHeadError        the run's log moved on since the writer loaded it
│  ├─ IntegrityError           stored or supplied bytes fail their size/digest check
│  │  └─ DecryptionError       a ciphertext fails to authenticate where it is read
│  ├─ FencedError              a writer with a stale lease epoch or producer was fenced
│  │  └─ NotOwnerError         a submission-owned append without owning the submission
│  ├─ FormatVersionError       the store is stamped with a format this code cannot use
│  ├─ InvalidTransitionError   an event would move an entity out of a terminal state
│  │  ├─ StreamPositionError   a stream append expected another index than the stream's next
│  │  └─ BatchPositionError    a conversation append expected another offset than its own
│  ├─ PayloadTooLargeError     one payload is over a documented cap
│  └─ InvalidOffsetError       a stream offset is malformed or past the stream's head
├─ SerializationError          a value cannot be encoded, or stored bytes cannot be decoded
├─ WorkflowError               a run cannot go on as asked
│  ├─ UnknownWorkflowError     no workflow of that name is registered
│  ├─ NonDeterminismError      replay asked for another step than the journal holds
│  ├─ StrandedRunError         no live worker runs the versions that built the run
│  ├─ ForkError                a run cannot be forked or resumed as asked (fork point, status)
│  ├─ RunFailedError           handle.result() of a run that failed
│  ├─ RunCancelledError        handle.result() of a run that was cancelled
│  ├─ RunTimeoutError          handle.result(timeout=...) ran out first
│  ├─ StepTimeoutError         an attempt of a step ran past its timeout (then retried)
│  ├─ StepFailedError          a step used its retry budget or raised FatalError
│  └─ ContinueAsNewError       ctx.continue_as_new cannot happen now; the run goes on
│     └─ ContinueAsNewUnavailableError   the backend cannot move hooks or retain tokens
└─ AgentError                  the agent layer (models, tools)
   ├─ ModelError              a model provider call failed; ``retryable`` says if a retry may help
   ├─ ToolArgumentsError      a model's tool arguments fail the tool's schema (told to the model)
   ├─ ToolUnavailableError    a tool's service cannot be reached now: the turn step is retried
   ├─ McpToolError            an MCP server refused a tool call (told to the model)
   ├─ OAuthError              an OAuth authorization server refused a code or a refresh
   │  └─ OAuthStateError      an authorization callback's state is unknown, used or expired
   ├─ InputRequestError       an answer to an input request that is not pending, or not allowed
   │  └─ InvalidAnswerError   an answer that does not fit its question (not one of its option ids)
   ├─ SessionClosedError      a send to a session that was closed or failed, or whose run ended
   ├─ SessionStrandedError    a send to a session no live worker can serve (built by other versions)
   ├─ AttachmentError         a file a session cannot store or send (unknown, unsupported, invalid)
   ├─ SessionFormatError      a session written in a checkpoint format this release does not read
   ├─ BudgetError             a budget declared or changed wrongly (bad limits, a raise that lowers)
   ├─ SessionForkError        a session that cannot be forked as asked (its point, or its content)
   ├─ DynamicError            a `Dynamic` declaration that cannot run (event, handler, time limit)
   └─ StateError              a session's declared state (`State`) was misused
      ├─ StateValueError      a value that does not fit its declaration, or is not JSON
      ├─ UnknownStateError    a key the agent does not declare
      └─ StateConflictError   two declarations of one key differ: no session opens or moves
FatalError                     raised by user code: fail now, do not retry
RecordedError                  stands in for an error whose class cannot be rebuilt here
AuthorizationRequired          raised by a tool: park the turn until the user authorizes
RetryableError                 raised by user code: retry, optionally after a delay
```

Errors carry their facts as attributes, and messages quote values with ``!r``.
"""

from __future__ import annotations

from ._agent import (
    AgentError,
    AttachmentError,
    AuthorizationRequired,
    BudgetError,
    DynamicError,
    InputRequestError,
    InvalidAnswerError,
    McpToolError,
    ModelError,
    OAuthError,
    OAuthStateError,
    SessionClosedError,
    SessionForkError,
    SessionFormatError,
    SessionStrandedError,
    StateConflictError,
    StateError,
    StateValueError,
    ToolArgumentsError,
    ToolUnavailableError,
    TranscriptLostError,
    UnknownStateError,
)
from ._base import (
    ConfigurationError,
    EncryptionKeyError,
    FatalError,
    FlowLimitError,
    InvalidInputError,
    MigrationPrivilegeError,
    MissingExtraError,
    RecordedError,
    RetryableError,
    SerializationError,
    TetherError,
)
from ._stores import (
    BatchPositionError,
    ConflictError,
    ContentDeletedError,
    DecryptionError,
    FencedError,
    FormatVersionError,
    HookTokenInUseError,
    IntegrityError,
    InvalidOffsetError,
    InvalidTransitionError,
    NotFoundError,
    NotOwnerError,
    PayloadTooLargeError,
    StaleHeadError,
    StoreError,
    StoreUnavailableError,
    StreamPositionError,
)
from ._workflow import (
    ContinueAsNewError,
    ContinueAsNewUnavailableError,
    ForkError,
    NonDeterminismError,
    RunCancelledError,
    RunDormantError,
    RunFailedError,
    RunTimeoutError,
    StepFailedError,
    StepTimeoutError,
    StrandedRunError,
    UnknownWorkflowError,
    WorkflowError,
)

__all__ = [
    "AgentError",
    "AttachmentError",
    "AuthorizationRequired",
    "BatchPositionError",
    "BudgetError",
    "ConfigurationError",
    "ConflictError",
    "ContentDeletedError",
    "ContinueAsNewError",
    "ContinueAsNewUnavailableError",
    "DecryptionError",
    "DynamicError",
    "EncryptionKeyError",
    "FatalError",
    "FencedError",
    "FlowLimitError",
    "ForkError",
    "FormatVersionError",
    "HookTokenInUseError",
    "InputRequestError",
    "IntegrityError",
    "InvalidAnswerError",
    "InvalidInputError",
    "InvalidOffsetError",
    "InvalidTransitionError",
    "McpToolError",
    "MigrationPrivilegeError",
    "MissingExtraError",
    "ModelError",
    "NonDeterminismError",
    "NotFoundError",
    "NotOwnerError",
    "OAuthError",
    "OAuthStateError",
    "PayloadTooLargeError",
    "RecordedError",
    "RetryableError",
    "RunCancelledError",
    "RunDormantError",
    "RunFailedError",
    "RunTimeoutError",
    "SerializationError",
    "SessionClosedError",
    "SessionForkError",
    "SessionFormatError",
    "SessionStrandedError",
    "StaleHeadError",
    "StateConflictError",
    "StateError",
    "StateValueError",
    "StepFailedError",
    "StepTimeoutError",
    "StoreError",
    "StoreUnavailableError",
    "StrandedRunError",
    "StreamPositionError",
    "TetherError",
    "ToolArgumentsError",
    "ToolUnavailableError",
    "TranscriptLostError",
    "UnknownStateError",
    "UnknownWorkflowError",
    "WorkflowError",
]

# One tree, one public module: each class keeps the path ``tether.errors.<name>`` it had
# when the tree was one file, which stored errors name their class by (the codec, pickles)
# and the documentation shows.
for _name in __all__:
    globals()[_name].__module__ = __name__
del _name
