"""The format registry and what it promises.

- every ``Format`` record is complete: its templates exist, its settings are
  fields of ``Tournament``, its games and stages are known choices, its URLs
  resolve, its rule labels name every rule its pure rules use;
- the pure core (``formats/base.py``, ``formats/*/rules.py``, ``season/``) imports no Django;
- outside ``tournament/formats/`` no code or template compares a tournament's
  format or game to a value: everything asks the registry.
"""

from __future__ import annotations

import ast
import importlib
import re
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest
from django import forms
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.template.loader import get_template
from django.urls import reverse

from tournament import enums
from tournament.formats import registry
from tournament.formats.record import RANKING_COLUMNS, Format
from tournament.forms import TournamentSettingsForm
from tournament.models import Tournament
from tournament.tests.settings_page import settings_data

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
    own = set(record.settings_form.base_fields)  # its own settings: attributes, not columns
    assert own <= set(record.settings_used) and not own & fields
    assert set(record.settings_used) <= fields | own
    assert all(
        getattr(Tournament(format=record.slug), name) == field.initial
        for name, field in record.settings_form.base_fields.items()
    )
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
    *sorted((ROOT / "tournament/season").glob("*.py")),
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
    # The season's chart draws the rating's history (both pure).
    allowed = {
        "tournament.formats.base",
        "tournament.seating",
        "tournament.schedule",
        "tournament",
        "tournament.season.rating",
    }
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


@pytest.fixture
def throwaway_line():  # type: ignore[no-untyped-def]
    """The throwaway format's one line in the registry, as a fourth format adds it: in ``FORMATS``,
    its settings installed on ``Tournament`` (at import for a real format); both taken back after."""
    from tournament.tests.formats.throwaway import plugin

    columns = [field.name for field in Tournament._meta.concrete_fields]
    assert not hasattr(Tournament, "first_to")
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(registry.FORMATS, "throwaway", plugin.FORMAT)
        registry.install_settings()
        try:
            yield plugin.FORMAT
        finally:
            patch.delitem(registry.FORMATS, "throwaway")
            registry.install_settings()
    assert not hasattr(Tournament, "first_to")
    assert [field.name for field in Tournament._meta.concrete_fields] == columns


def test_a_fourth_format_needs_its_package_and_one_registry_line(throwaway_line, settings) -> None:
    """The rule for adding a format (ARCHITECTURE.md, "Adding a format"), tried: a throwaway format
    written as a package (``tests/formats/throwaway``: rules, services, reads, dry_run, plugin and
    its templates) and one line in the registry is accepted by the checks every format passes. (Its
    choice in ``enums.Format``, with the migration of ``Tournament.format``'s choices, is the rule's
    last step; a throwaway format never reaches the database.)"""
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], THROWAWAY / "templates"]}]
    from tournament.tests.formats.throwaway import rules

    record = registry.get("throwaway")  # the one registry line (``throwaway_line``)
    assert_complete(record)
    assert_rules_labelled(record, rules)
    assert record in registry.for_game(enums.Game.UNO)
    assert not record.records_loser and record.result_entry.read({"winner": "7"})[0].winner == 7
    assert record.cards_held is not None and record.json_seat_counts == ()
    # Its pure rules import no Django, like every format's.
    test_the_pure_core_imports_no_django(THROWAWAY / "rules.py")
    # Nothing outside the formats had to learn of it: no branch names it.
    assert not any("throwaway" in path.read_text() for path in _sources())


@pytest.mark.django_db
def test_a_fourth_format_declares_its_settings_and_adds_no_column(throwaway_line) -> None:
    """The throwaway format declares ``first_to`` in its ``settings.py``: with its registry line it
    is ``tournament.first_to`` (its default 2 unless set), stored in ``format_settings``, checked
    by its form (the settings page, ``Tournament.full_clean``), and ``Tournament`` gains no column
    (``throwaway_line`` compares the concrete fields before and after)."""
    assert "first_to" not in {field.name for field in Tournament._meta.get_fields()}
    assert Tournament(format="throwaway").first_to == 2
    made = Tournament.objects.create(name="Ein Abend", date="2026-11-27", game="uno", format="throwaway", first_to=4)
    stored = Tournament.objects.get(pk=made.pk)
    assert stored.format_settings == {"first_to": 4} and stored.first_to == 4
    stored.first_to = 5
    stored.save(update_fields=["first_to"])
    assert Tournament.objects.get(pk=made.pk).format_settings == {"first_to": 5}
    assert registry.validate_format_settings({"first_to": "3"}) == {"first_to": 3}
    for bad in (0, 10, "many", None):
        with pytest.raises(ValidationError) as refused:
            registry.validate_format_settings({"first_to": bad})
        assert set(refused.value.message_dict) == {"first_to"}
        stored.first_to = bad
        with pytest.raises(ValidationError, match="first_to"):
            stored.full_clean()
    # The settings page shows it where the format lists it and refuses a bad value.
    stored.first_to = 5
    form = TournamentSettingsForm(settings_data(stored, first_to="0"), instance=stored)
    assert "first_to" in form.fields and not form.is_valid() and "first_to" in form.errors
    assert "wins_needed" not in form.fields  # the knockout's own
    assert TournamentSettingsForm(settings_data(stored, first_to="3"), instance=stored).is_valid()


def test_two_formats_cannot_declare_one_setting_nor_take_a_field_s_name() -> None:
    """``registry.declared_settings`` (run by ``install_settings`` at start) refuses a setting
    declared by two formats and one named like an attribute of ``Tournament``."""
    knockout = registry.get("knockout")
    twin = replace(registry.get("points"), slug="twin", settings_form=knockout.settings_form)
    with pytest.raises(ImproperlyConfigured, match="knockout and twin both declare the setting 'wins_needed'"):
        registry.declared_settings({"knockout": knockout, "twin": twin})

    class Clashing(forms.Form):
        table_size = forms.IntegerField(initial=3)

    for form_class in (Clashing, type("Named", (forms.Form,), {"play_started": forms.BooleanField()})):
        clash = replace(knockout, slug="clash", settings_form=form_class)
        with pytest.raises(ImproperlyConfigured, match="is taken on Tournament"):
            registry.declared_settings({"clash": clash})
    declared = registry.declared_settings()
    assert set(declared) == {name for record in RECORDS for name in record.settings_form.base_fields}
    assert Tournament.format_setting_names() == set(declared)
