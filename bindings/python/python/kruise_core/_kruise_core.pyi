"""Type stubs of the native module ``kruise_core._kruise_core`` (hand-written; checked by
``python -m mypy.stubtest kruise_core``)."""

from typing import Any, Union, final

__all__ = [
    "__version__",
    "HAS_EXPRESSION",
    "KruiseError",
    "call",
    "call_json",
    "fn_ids",
    "matches",
    "Expression",
    "scale_int_or_percent",
]

__version__: str
HAS_EXPRESSION: bool

class KruiseError(ValueError):
    """A decision error. ``kind`` is the stable snake_case error kind."""

    kind: str
    message: str
    field: Union[str, None]

def call(fn_id: str, input: Any) -> Any:
    """Call a registered decision function on a JSON-shaped value; raises ``KruiseError``."""

def call_json(fn_id: str, input_json: str) -> str:
    """Like ``call`` with JSON text in and out; raises ``KruiseError``."""

def fn_ids() -> list[str]:
    """Every registered fn id."""

def matches(fn_id: str, expected: Any, got: Any) -> bool:
    """Whether ``got`` matches ``expected`` under the core's comparison rule for ``fn_id``."""

@final
class Expression:
    """A compiled resource expression: ``Expression("max(cpu*50%, 50m)").eval(cpu="200m")``."""

    def __new__(cls, src: str) -> Expression: ...
    @property
    def source(self) -> str:
        """The expression text as given."""

    def eval(self, **vars: Union[str, int, float]) -> str:
        """Evaluate: ``str`` values are quantities, ``int``/``float`` numbers; raises ``KruiseError``."""

def scale_int_or_percent(value: Union[int, str, None], total: int, round_up: bool, mode: str = "scaled") -> int:
    """Scale an int-or-percent against ``total`` (modes ``scaled``, ``legacy``, ``kruise``); raises ``KruiseError``."""
