"""One way in: no view reads ``request.POST`` by hand, and no view catches ``ServiceError`` itself.

Every POST a view reads goes through a form (``tournament/forms.py``, ``tournament/views/forms.py``):
a view may pass ``request.POST`` to a form (``SomeForm(request.POST)``, also as
``request.POST if request.method == "POST" else None``) and nothing else. A refusal becomes the
answer through ``tournament/http.py`` (``answers_refusals``, ``refusal``), never an
``except ServiceError`` block of its own.

``ALLOWED``: the files that must read the POST themselves, with why.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
VIEWS = sorted((ROOT / "tournament/views").glob("*.py")) + sorted((ROOT / "tournament/formats").glob("*/views.py"))

ALLOWED = {
    # The forms themselves: binding the POST is what they are for (and the audit's dump of a refused post).
    "tournament/views/forms.py",
}


def _passed_to_a_call(tree: ast.AST) -> set[int]:
    """The ``request.POST`` nodes handed to a call as an argument (the form's data)."""
    passed = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for arg in [*node.args, *(keyword.value for keyword in node.keywords)]:
                if isinstance(arg, ast.IfExp):
                    passed.update(id(branch) for branch in (arg.body, arg.orelse))
                passed.add(id(arg))
    return passed


def _hand_reads(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    passed = _passed_to_a_call(tree)
    found = []
    for node in ast.walk(tree):
        is_post = isinstance(node, ast.Attribute) and node.attr == "POST"
        if is_post and isinstance(node.value, ast.Name) and node.value.id == "request" and id(node) not in passed:
            found.append(f"line {node.lineno}: request.POST read by hand")
        if isinstance(node, ast.ExceptHandler) and node.type is not None:
            names = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
            if any(isinstance(name, ast.Name) and name.id == "ServiceError" for name in names):
                found.append(f"line {node.lineno}: except ServiceError (use tournament.http)")
    return sorted(found, key=lambda text: int(text.split()[1].rstrip(":")))


@pytest.mark.parametrize("path", VIEWS, ids=lambda path: str(path.relative_to(ROOT)))
def test_views_read_posts_through_forms_and_refusals_through_http(path: Path) -> None:
    if str(path.relative_to(ROOT)) in ALLOWED:
        return
    assert _hand_reads(path) == []


def test_the_scan_catches_what_it_forbids(tmp_path: Path) -> None:
    view = tmp_path / "view.py"
    view.write_text(
        "def view(request):\n"
        "    form = Form(request.POST if request.method == 'POST' else None)\n"
        "    other = Form(request.POST, request.FILES)\n"
        "    a = request.POST.get('a')\n"
        "    b = request.POST['b']\n"
        "    try:\n"
        "        pass\n"
        "    except (NeedsChoice, ServiceError):\n"
        "        pass\n"
    )
    assert _hand_reads(view) == [
        "line 4: request.POST read by hand",
        "line 5: request.POST read by hand",
        "line 8: except ServiceError (use tournament.http)",
    ]
