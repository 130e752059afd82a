"""Every family of the registry is a submodule of ``kruise_core``, imported by the package and
listed in ``__all__`` (``kruise_core/__init__.py`` names them by hand; this catches a new family
that was generated but not added there)."""

from __future__ import annotations

import kruise_core
from kruise_core import _typed


def test_every_family_is_imported_and_exported() -> None:
    families = sorted({family for family, _ in _typed.TYPED_FNS.values()})
    assert "sidecarset" in families
    for family in families:
        assert family in kruise_core.__all__, family
        module = getattr(kruise_core, family)
        assert module.__name__ == f"kruise_core.{family}"
    assert kruise_core.sidecarset.match.__module__ == "kruise_core.sidecarset"
