"""Type stubs of the native module ``kruise_core._kruise_core`` (hand-written; checked by
``python -m mypy.stubtest kruise_core``)."""

import datetime
from typing import Any, Union, final

from kruise_core._typed import ErrorKind

__all__ = [
    "__version__",
    "HAS_EXPRESSION",
    "DEFAULT_MAX_INPUT_BYTES",
    "KruiseError",
    "call",
    "call_json",
    "fn_ids",
    "matches",
    "set_max_input_bytes",
    "max_input_bytes",
    "Expression",
    "scale_int_or_percent",
    "Schedule",
]

__version__: str
HAS_EXPRESSION: bool
DEFAULT_MAX_INPUT_BYTES: int

class KruiseError(ValueError):
    """A decision error. ``kind`` is the stable snake_case error kind (``kruise_core.ErrorKind``,
    generated from the registry's declared kinds)."""

    kind: ErrorKind
    message: str
    field: Union[str, None]

def call(fn_id: str, input: Any) -> Any:
    """Call a registered decision function on a JSON-shaped value; raises ``KruiseError``
    (``invalid_input`` for NaN, infinities, nesting deeper than the JSON parser's limit;
    ``input_too_large`` past ``max_input_bytes()`` of compact JSON)."""

def call_json(fn_id: str, input_json: str) -> str:
    """Like ``call`` with JSON text in and out; raises ``KruiseError``."""

def fn_ids() -> list[str]:
    """Every registered fn id."""

def matches(fn_id: str, expected: Any, got: Any) -> bool:
    """Whether ``got`` matches ``expected`` under the core's comparison rule for ``fn_id``."""

def set_max_input_bytes(n: int) -> int:
    """Set the input-size limit (bytes; default ``DEFAULT_MAX_INPUT_BYTES``, 16 MiB); returns the previous one."""

def max_input_bytes() -> int:
    """The current input-size limit in bytes."""

@final
class Expression:
    """A compiled resource expression: ``Expression("max(cpu*50%, 50m)").eval(cpu="200m")``."""

    def __new__(cls, src: str, *, strict: bool = False) -> Expression: ...
    @property
    def source(self) -> str:
        """The expression text as given."""

    def eval(self, **vars: Union[str, int, float]) -> str:
        """Evaluate: ``str`` values are quantities, ``int``/``float`` numbers; raises ``KruiseError``."""

def scale_int_or_percent(value: Union[int, str, None], total: int, round_up: bool, mode: str = "scaled") -> int:
    """Scale an int-or-percent against ``total`` (modes ``scaled``, ``legacy``, ``kruise``); raises ``KruiseError``."""
@final
class Schedule:
    """An AdvancedCronJob schedule (robfig/cron v3.0.1 ``ParseStandard`` after OpenKruise's
    ``formatSchedule``): ``Schedule("0 */2 * * *", time_zone="Asia/Shanghai").next(after, 5)``.
    Raises ``KruiseError`` with the ``cron.parse`` error kinds."""

    def __new__(
        cls, spec: str, time_zone: Union[str, None] = None, local_time_zone: str = "UTC"
    ) -> Schedule: ...
    @property
    def spec(self) -> str:
        """The schedule text as given."""

    @property
    def time_zone(self) -> Union[str, None]:
        """The ``time_zone`` given (the ACJ's ``spec.timeZone``)."""

    @property
    def location(self) -> Union[str, None]:
        """The zone the schedule is evaluated in; None for the controller's local zone."""

    def next(self, after: Union[datetime.datetime, str], n: int = 1) -> list[datetime.datetime]:
        """Up to ``n`` chained fire times after ``after`` (naive datetimes are UTC), as UTC datetimes."""

    def next_unix(self, after: int, n: int = 1) -> list[int]:
        """Like ``next`` on Unix seconds."""

    def describe(self) -> dict[str, Any]:
        """The parsed form, as ``cron.parse`` returns it."""
