"""Hand-written native fast path of the rollout family, re-exported by ``kruise_core.rollout``.

``scale`` calls the native ``scale_int_or_percent`` (no JSON round trip); it answers exactly what
the generated ``rollout.scale_int_or_percent`` (fn ``rollout.scale_int_or_percent``) answers.
"""

from typing import Union

from typing_extensions import Literal

from ._kruise_core import scale_int_or_percent

__all__ = ["scale"]


def scale(
    value: Union[int, str, None],
    total: int,
    round_up: bool = True,
    mode: Literal["scaled", "legacy", "kruise"] = "scaled",
) -> int:
    """Scale an int-or-percent against ``total`` (native fast path of ``rollout.scale_int_or_percent``).

    Integers come back unchanged (no clamping); a percentage gives ``ceil`` (``round_up``) or
    ``floor`` of ``p * total / 100`` computed in float64. ``mode`` picks the parser: ``"scaled"``
    (apimachinery ``GetScaledValueFromIntOrPercent``: must end in ``%``, integer), ``"legacy"``
    (``GetValueFromIntOrPercent``: every ``%`` deleted, integer) or ``"kruise"`` (OpenKruise's
    float parser). Raises ``KruiseError`` with kind ``nil_value``, ``not_a_percentage`` or
    ``invalid_number``.

    >>> scale("25%", 10), scale("25%", 10, round_up=False), scale("5%0", 10, mode="legacy")
    (3, 2, 5)
    """
    return scale_int_or_percent(value, total, round_up, mode)
