"""The shape of the code: no function in ``tournament/`` (outside migrations and tests) longer
than ``LIMIT`` lines, so that every step of an algorithm or a service has a name.

A function's length runs from its ``def`` to its last line, docstring included (decorators not);
a nested function counts on its own and inside its parent. ``DEBT`` lists the functions still
over the limit, with their lengths when the list was made, so the next engineer sees the debt.
The list may only shrink: the test fails when a listed function is now short enough or gone
(take it off the list), and on any function over the limit not listed (split it into named
steps instead of listing it).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tournament"
LIMIT = 60

#: Functions over ``LIMIT`` lines, as "path:qualified name" -> lines when listed (issue 31).
DEBT: dict[str, int] = {}


def _sources() -> list[Path]:
    return sorted(
        path
        for path in PACKAGE.rglob("*.py")
        if not {"migrations", "tests"} & set(path.relative_to(PACKAGE).parts[:-1])
    )


def _lengths(path: Path) -> dict[str, int]:
    """Every function of ``path`` (methods and nested functions too) -> its length in lines."""
    found: dict[str, int] = {}
    where = path.relative_to(ROOT).as_posix()

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                assert child.end_lineno is not None
                found[f"{where}:{prefix}{child.name}"] = child.end_lineno - child.lineno + 1
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(path.read_text(), filename=str(path)), "")
    return found


def _all_lengths() -> dict[str, int]:
    lengths: dict[str, int] = {}
    for path in _sources():
        lengths.update(_lengths(path))
    return lengths


def test_the_walk_sees_the_package() -> None:
    lengths = _all_lengths()
    # The walk reaches the pure core and the services, not the migrations nor the tests.
    assert any(name.startswith("tournament/seating/repeats.py:") for name in lengths)
    assert any(name.startswith("tournament/play/") for name in lengths)
    assert not any("/migrations/" in name or "/tests/" in name for name in lengths)


def test_no_function_over_the_limit_unless_listed() -> None:
    long = {name: lines for name, lines in _all_lengths().items() if lines > LIMIT}
    unlisted = {name: lines for name, lines in long.items() if name not in DEBT}
    assert not unlisted, f"functions over {LIMIT} lines: split them into named steps: {unlisted}"


def test_the_debt_only_shrinks() -> None:
    lengths = _all_lengths()
    paid = {name: lengths.get(name) for name in DEBT if lengths.get(name, 0) <= LIMIT}
    assert not paid, f"now {LIMIT} lines or fewer, or gone (None): take them off DEBT: {paid}"
