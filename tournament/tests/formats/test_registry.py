"""The format registry and what it promises.

- every ``Format`` record is complete: its templates exist, its settings are
  fields of ``Tournament``, its games and stages are known choices, its URLs
  resolve, its rule labels name every rule its pure rules use;
- the pure core (``formats/base.py``, ``formats/*/rules.py``) imports no Django;
- outside ``tournament/formats/`` no code or template compares a tournament's
  format or game to a value: everything asks the registry.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path
from types import ModuleType

import pytest
from django.template.loader import get_template
from django.urls import reverse

from tournament import enums
from tournament.formats import registry
from tournament.formats.record import RANKING_COLUMNS, Format
from tournament.models import Tournament

ROOT = Path(__file__).resolve().parents[3]
RECORDS = list(registry.FORMATS.values())


def assert_complete(record: Format) -> None:
    """What every format's record must hold (a fourth format's too: ``test_a_fourth_format_...``)."""
    assert record.slug == record.spec.slug
    assert set(record.games) <= set(enums.Game.values) and record.games
    assert set(record.spec.stages) <= set(enums.Stage.values)
    for name in vars(record.templates).values():
        get_template(name)  # raises when it is missing
    fields = {field.name for field in Tournament._meta.get_fields()}
    assert set(record.settings_used) <= fields
    assert set(record.ranking_columns) <= set(RANKING_COLUMNS)
    assert record.entry in {"winner", "loser"}
    assert all(str(label) for label in record.default_checklist())
    for pattern in record.urlpatterns:
        assert pattern.name, "a format's pages are named"
        reverse(f"tournament:{pattern.name}", args=[1, 1])


def assert_rules_labelled(record: Format, rules: ModuleType) -> None:
    codes = {value for name, value in vars(rules).items() if name.startswith("RULE_")}
    assert codes, record.slug
    assert codes == set(record.rule_labels), record.slug


@pytest.mark.parametrize("record", RECORDS, ids=lambda record: record.slug)
def test_every_record_is_complete(record: Format) -> None:
    assert record.slug in enums.Format.values
    assert_complete(record)


def test_every_format_choice_has_a_record() -> None:
    assert set(registry.FORMATS) == set(enums.Format.values)


@pytest.mark.parametrize("record", RECORDS, ids=lambda record: record.slug)
def test_every_rule_has_a_label(record: Format) -> None:
    assert_rules_labelled(record, importlib.import_module(f"tournament.formats.{record.slug}.rules"))


def test_a_game_is_played_with_its_formats() -> None:
    for game in enums.Game.values:
        assert registry.for_game(game), game
    assert registry.get("knockout") is registry.FORMATS["knockout"]
    with pytest.raises(KeyError):
        registry.get("chess")


PURE = [
    ROOT / "tournament/formats/base.py",
    ROOT / "tournament/folding.py",
    *sorted((ROOT / "tournament/seating").glob("*.py")),
    ROOT / "tournament/schedule.py",
    ROOT / "tournament/draws.py",
    *sorted((ROOT / "tournament/formats").glob("*/rules.py")),
]


@pytest.mark.parametrize("path", PURE, ids=lambda path: str(path.relative_to(ROOT)))
def test_the_pure_core_imports_no_django(path: Path) -> None:
    tree = ast.parse(path.read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
    impure = {name for name in imported if name.startswith(("django", "tournament.models", "games.models"))}
    assert not impure, impure
    allowed = {"tournament.formats.base", "tournament.seating", "tournament.schedule", "tournament"}
    own = {name for name in imported if name.startswith("tournament") and not name.startswith("tournament.seating.")}
    assert own <= allowed, own - allowed


# A comparison of a tournament's format or game with a value, in Python or in a template, or of a
# format record's kind of entry or slug (the record answers such questions: ``records_loser``).
BRANCH = re.compile(
    r"""(\.format|\.game|\.entry|\.slug)\s*(==|!=|\sin\s|\sis\s)"""
    r"""|(==|!=|\sis\s)\s*(enums\.)?(Format|Game|Entry)\."""
    r"""|(format|game|entry)\s*(==|!=)\s*["']"""
)


def _sources() -> list[Path]:
    python = [
        path
        for path in (ROOT / "tournament").rglob("*.py")
        if "tests" not in path.parts and "migrations" not in path.parts and "formats" not in path.parts
    ]
    templates = [path for path in (ROOT / "templates").rglob("*.html") if "formats" not in path.parts]
    return python + list((ROOT / "config").rglob("*.py")) + templates


def test_nothing_outside_the_formats_branches_on_the_format() -> None:
    found = []
    for path in _sources():
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if BRANCH.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == [], "\n".join(found)


def test_the_branch_check_would_see_a_branch() -> None:
    for line in [
        'if tournament.format == "points":',
        "elif t.format != enums.Format.POINTS:",
        '{% if tournament.game == "uno" %}',
        "if format == 'knockout':",
        'if fmt.entry == "loser":',
        '{% if fmt.entry == "winner" and view.seats %}',
        "if fmt.entry is Entry.LOSER:",
        'if registry.of(t).slug == "points":',
    ]:
        assert BRANCH.search(line), line


def test_the_play_core_never_looks_a_format_up() -> None:
    """The formats' records name the play core's hooks (``CorrectionHooks``), so the play core
    takes the format from its caller: no module of ``tournament/play/`` imports the registry,
    at its top or inside a function (which is how the import cycle used to hide)."""
    for path in sorted((ROOT / "tournament" / "play").glob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        imported = {
            node.module + "." + alias.name if node.module else alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
            for alias in node.names
        } | {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        assert not any("registry" in name for name in imported), f"{path.name} imports the registry"


THROWAWAY = ROOT / "tournament/tests/formats/throwaway"


def test_a_fourth_format_needs_its_package_and_one_registry_line(monkeypatch, settings) -> None:
    """The rule for adding a format (ARCHITECTURE.md, "Adding a format"), tried: a throwaway format
    written as a package (``tests/formats/throwaway``: rules, services, reads, dry_run, plugin and
    its templates) and one line in the registry is accepted by the checks every format passes. (Its
    choice in ``enums.Format``, with the migration of ``Tournament.format``'s choices, is the rule's
    last step; a throwaway format never reaches the database.)"""
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], THROWAWAY / "templates"]}]
    from tournament.tests.formats.throwaway import plugin, rules

    monkeypatch.setitem(registry.FORMATS, "throwaway", plugin.FORMAT)  # the one registry line
    record = registry.get("throwaway")
    assert_complete(record)
    assert_rules_labelled(record, rules)
    assert record in registry.for_game(enums.Game.UNO)
    assert not record.records_loser and record.result_entry.read({"winner": "7"})[0].winner == 7
    assert record.cards_held is not None and record.json_seat_counts == ()
    # Its pure rules import no Django, like every format's.
    test_the_pure_core_imports_no_django(THROWAWAY / "rules.py")
    # Nothing outside the formats had to learn of it: no branch names it.
    assert not any("throwaway" in path.read_text() for path in _sources())
