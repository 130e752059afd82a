"""OpenKruise v1.9 decision logic, from Python.

Generic entry points (every fn id of the Rust registry, see ``fn_ids()``):

- ``call(fn_id, input)``: JSON-shaped Python values in and out (dict/list/str/int/float/bool/None);
- ``call_json(fn_id, text)``: JSON text in and out;
- ``matches(fn_id, expected, got)``: the conformance comparison rule of the core.

Typed (generated from the Rust registry by ``scripts/codegen``): for every fn id ``family.name``,
``kruise_core.<family>.<snake_name>(input) -> output`` with ``TypedDict`` input and output (the
JSON's camelCase keys), e.g. ``rollout.scale_int_or_percent({"value": "25%", "total": 10,
"roundUp": True, "mode": "scaled"}) == 3``; ``docs/fns.md`` lists them all.

Native fast paths (hand-written, no JSON): ``Expression("max(cpu*50%, 50m)").eval(cpu="200m") ==
"100m"``; ``rollout.scale("25%", 10) == 3``; ``Schedule("0 */2 * * *",
time_zone="Asia/Shanghai").next(after, 5)`` (AdvancedCronJob fire times).

Every decision error raises ``KruiseError`` (a ``ValueError``) with ``.kind`` (an ``ErrorKind``, stable snake_case,
as in the conformance vectors' ``expect_error``), ``.message`` and ``.field``; so do wrong arguments
(kind ``invalid_input``, naming the argument).

Limits: an input larger than ``max_input_bytes()`` (default ``DEFAULT_MAX_INPUT_BYTES``, 16 MiB, of
compact JSON; ``set_max_input_bytes(n)`` changes it process-wide) raises kind ``input_too_large``;
NaN, infinities and nesting deeper than the JSON parser's limit raise ``invalid_input``.
"""

from ._kruise_core import (
    DEFAULT_MAX_INPUT_BYTES,
    HAS_EXPRESSION,
    Expression,
    KruiseError,
    Schedule,
    __version__,
    call,
    call_json,
    fn_ids,
    matches,
    max_input_bytes,
    set_max_input_bytes,
)
from ._typed import ErrorKind

from . import allocation, api, compat, cron, distribution, imagepull, jobsidecar, k8s, pub, resources, rollout, sidecarset

__all__ = [
    "DEFAULT_MAX_INPUT_BYTES",
    "ErrorKind",
    "HAS_EXPRESSION",
    "Expression",
    "KruiseError",
    "Schedule",
    "__version__",
    "allocation",
    "api",
    "compat",
    "call",
    "call_json",
    "cron",
    "distribution",
    "fn_ids",
    "imagepull",
    "jobsidecar",
    "k8s",
    "matches",
    "max_input_bytes",
    "pub",
    "resources",
    "rollout",
    "set_max_input_bytes",
    "sidecarset",
]
