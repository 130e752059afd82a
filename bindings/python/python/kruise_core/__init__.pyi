"""Type stubs of ``kruise_core`` (re-exports of the native module)."""

from ._kruise_core import (
    DEFAULT_MAX_INPUT_BYTES as DEFAULT_MAX_INPUT_BYTES,
    HAS_EXPRESSION as HAS_EXPRESSION,
    Expression as Expression,
    KruiseError as KruiseError,
    Schedule as Schedule,
    __version__ as __version__,
    call as call,
    call_json as call_json,
    fn_ids as fn_ids,
    matches as matches,
    max_input_bytes as max_input_bytes,
    set_max_input_bytes as set_max_input_bytes,
)

from . import allocation as allocation
from . import api as api
from . import rollout as rollout
from . import pub_budget as pub_budget

__all__ = [
    "DEFAULT_MAX_INPUT_BYTES",
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
    "max_input_bytes",
    "pub_budget",
    "rollout",
    "set_max_input_bytes",
]
