"""Type stubs of ``kruise_core`` (re-exports of the native module)."""

from ._kruise_core import (
    HAS_EXPRESSION as HAS_EXPRESSION,
    Expression as Expression,
    KruiseError as KruiseError,
    Schedule as Schedule,
    __version__ as __version__,
    call as call,
    call_json as call_json,
    fn_ids as fn_ids,
    matches as matches,
)

from . import allocation as allocation
from . import api as api
from . import rollout as rollout
from . import pub_budget as pub_budget

__all__ = [
    "HAS_EXPRESSION",
    "Expression",
    "KruiseError",
    "Schedule",
    "__version__",
    "allocation",
    "api",
    "call",
    "call_json",
    "fn_ids",
    "matches",
    "pub_budget",
    "rollout",
]
