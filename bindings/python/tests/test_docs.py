"""docs/python.md's table of the typed functions of every family matches the generated modules:
each family has its row, each row lists exactly that family's functions (``_typed.TYPED_FNS``), and
each function is ``f(input: <Name>Input) -> <Name>Output`` as the guide says."""

from __future__ import annotations

import importlib
import inspect
import re

from kruise_core import _typed
from conftest import REPO

ROW = re.compile(r"^\| `kruise_core\.(\w+)` \| (.+) \|$", re.M)


def documented() -> dict[str, list[str]]:
    text = (REPO / "docs" / "python.md").read_text(encoding="utf-8")
    # the first backticked word of each comma-separated item (the rest is a remark)
    return {fam: re.findall(r"(?:^|, )`(\w+)`", cell) for fam, cell in ROW.findall(text)}


def test_every_family_and_function_is_documented() -> None:
    docs = documented()
    generated: dict[str, set[str]] = {}
    for family, name in _typed.TYPED_FNS.values():
        generated.setdefault(family, set()).add(name)
    assert set(docs) == set(generated), "docs/python.md family rows differ from the generated modules"
    for family, names in docs.items():
        assert len(names) == len(set(names)), f"{family}: a function listed twice: {names}"
        assert set(names) == generated[family], f"{family}: documented {sorted(names)}, generated {sorted(generated[family])}"


def test_documented_signatures() -> None:
    for family, names in documented().items():
        module = importlib.import_module(f"kruise_core.{family}")
        for name in names:
            camel = "".join(part.capitalize() for part in name.split("_"))
            # the source line, since an output that is a plain value is a TypeAlias (`EvalOutput = str`)
            head = inspect.getsource(getattr(module, name)).split("\n", 1)[0]
            want = (f"def {name}(input: {camel}Input) -> {camel}Output:", f"def {name}(input: {camel}Input) -> Optional[{camel}Output]:")
            assert head in want, (family, head)
            assert hasattr(module, f"{camel}Input") and hasattr(module, f"{camel}Output"), (family, name)
