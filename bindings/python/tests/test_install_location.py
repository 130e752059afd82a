"""Which copy of ``kruise_core`` the suite tests. ``KRUISE_PACKAGE_FROM`` says what the runner
installed: ``source`` (``maturin develop``: the package directory of this source tree) or
``site-packages`` (a wheel installed into the venv, as scripts/test-all's wheel section does); the
test proves the imports resolve there. Skipped when the variable is unset (an ad-hoc run)."""

from __future__ import annotations

import os
import sys
import sysconfig
from pathlib import Path

import pytest

import kruise_core
from kruise_core import _kruise_core

SOURCE_PACKAGE = Path(__file__).resolve().parents[1] / "python" / "kruise_core"


def test_kruise_core_is_the_installed_copy() -> None:
    mode = os.environ.get("KRUISE_PACKAGE_FROM")
    if mode is None:
        pytest.skip("KRUISE_PACKAGE_FROM is unset")
    package = Path(kruise_core.__file__).resolve().parent
    native = Path(_kruise_core.__file__).resolve()
    assert native.parent == package, (native, package)
    if mode == "source":
        assert package == SOURCE_PACKAGE, package
    elif mode == "site-packages":
        site = {Path(sysconfig.get_paths()[k]).resolve() for k in ("purelib", "platlib")}
        assert package.parent in site, (package, site)
        assert Path(sys.prefix).resolve() in package.parents, (package, sys.prefix)
        assert package != SOURCE_PACKAGE
        # the wheel's module is the abi3 one, not a develop build's left-over
        assert native.name == "_kruise_core.abi3.so", native
    else:
        pytest.fail(f"KRUISE_PACKAGE_FROM={mode!r}: want source or site-packages")
