"""The settings page with each format's own settings (``formats/<slug>/settings.py``, stored in
``Tournament.format_settings``): shown by name in the order the format lists them, checked,
saved; another format's setting posted is ignored. And migration 0022, which moved them there."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from tournament import enums, simulation
from tournament.forms import TournamentSettingsForm
from tournament.models import Tournament
from tournament.tests.settings_page import organiser_login, settings_data  # noqa: F401 (the "organiser" fixture)

HEAD = ["name", "date", "venue", "capacity", "entry_fee"]
TAIL = [
    "confirm_results",
    "table_entry",
    "self_check_in",
    "check_in_by_name",
    "start_time",
    "minutes_between_rounds",
    "game_minutes_preferred",
    "game_minutes_largest",
    "display_rotation_seconds",
    "display_language",
    "listed",
    "online_signup",
    "rules_text",
    "rules_url",
    "announcement",
    "fee_fixes_place",
]
SEATING = ["table_size", "table_size_max", "auto_advance", "keep_clubs_apart"]
# The page's fields as they were when the settings were columns (the tests post these names).
FIELDS = {
    "knockout": [
        *SEATING,
        "wins_needed",
        "wins_needed_large_table",
        "final_size",
        "final_target_kind",
        "final_points_target",
        "final_wins_target",
        "duel_wins_needed",
    ],
    "life_bands": [
        *SEATING,
        "life_bands",
        "chips_per_table",
        "chips_grand_final",
        "sharp_play_minutes",
        "schocken_street",
    ],
    "points": [
        *SEATING,
        "rounds_planned",
        "games_per_round",
        "round_time_limit_minutes",
        "points_missed_rounds",
        "points_tie_breaks",
        "points_tie_places",
        "points_tie_resolution",
    ],
}


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", list(FIELDS))
def test_the_page_shows_the_format_s_settings_by_name_in_order(fmt: str) -> None:
    tournament = simulation.create_field(fmt=fmt, players=4, seed=1)
    form = TournamentSettingsForm(instance=tournament)
    assert list(form.fields) == [*HEAD, *FIELDS[fmt], *TAIL]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fmt", "name", "value", "german"),
    [
        ("life_bands", "chips_per_table", 0, "größer oder gleich 1"),
        ("life_bands", "schocken_street", "third_roll", "keine gültige Auswahl"),
        ("points", "games_per_round", 51, "kleiner oder gleich 50"),
        ("points", "round_time_limit_minutes", "soon", "ganze Zahl"),
        ("points", "points_missed_rounds", "", "Dieses Feld ist zwingend erforderlich"),
        ("knockout", "final_size", 5, "Im Finale können nicht mehr Spieler sitzen als am größten Tisch."),
    ],
)
def test_a_bad_format_setting_is_refused_with_nothing_saved(organiser, fmt, name, value, german) -> None:
    tournament = simulation.create_field(fmt=fmt, players=4, seed=1)
    before = Tournament.objects.values().get(pk=tournament.pk)
    data = settings_data(tournament, **{name: value}, name="Renamed")
    response = organiser(tournament).post(
        reverse("tournament:settings", args=[tournament.pk]), data, HTTP_ACCEPT_LANGUAGE="de"
    )
    assert response.status_code == 422
    assert german in response.content.decode()
    assert Tournament.objects.values().get(pk=tournament.pk) == before, "nothing saved"


@pytest.mark.django_db
def test_a_format_setting_is_saved_and_another_format_s_ignored(organiser) -> None:
    tournament = simulation.create_field(fmt=enums.Format.POINTS, players=4, seed=1)
    assert "wins_needed" not in tournament.format_settings
    data = settings_data(tournament, rounds_planned=6, wins_needed=7, chips_per_table=9, life_bands="lots")
    response = organiser(tournament).post(reverse("tournament:settings", args=[tournament.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    saved = Tournament.objects.get(pk=tournament.pk)
    assert saved.rounds_planned == 6 and saved.format_settings["rounds_planned"] == 6
    assert saved.wins_needed == 3 and saved.chips_per_table == 2  # the defaults: nothing posted taken
    assert not {"wins_needed", "chips_per_table", "life_bands"} & set(saved.format_settings)


# --- migration 0023 -----------------------------------------------------------------------

BEFORE, AFTER = ("tournament", "0022_player_passes"), ("tournament", "0023_format_settings")


def latest() -> list[tuple[str, str]]:
    """Every app's newest migration: the live models need every later column too. Going back to
    0022 also unapplies the other apps' migrations that depend on a later one (games 0005 on
    tournament 0029); migrating forward only the tournament app left them out for every test the
    worker ran next."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def migrate(*targets: tuple[str, str]):  # type: ignore[no-untyped-def]
    """The database migrated to ``targets``; the models as they were there."""
    executor = MigrationExecutor(connection)
    executor.migrate(list(targets))
    executor.loader.build_graph()
    return executor.loader.project_state(list(targets)).apps


@pytest.mark.django_db(transaction=True)
def test_migration_0023_moves_the_columns_into_format_settings_and_back() -> None:
    """Forwards: every value of the tournament's own format, another format's only where it is not
    the default. Backwards: the columns hold the stored values again (the defaults elsewhere)."""
    try:
        old = migrate(BEFORE).get_model("tournament", "Tournament")
        common = {"date": "2026-11-27", "game": "uno"}
        points = old.objects.create(
            name="Punkte", format="points", rounds_planned=6, round_time_limit_minutes=25, wins_needed=5, **common
        )
        knockout = old.objects.create(name="KO", format="knockout", final_target_kind="wins", **common)
        new = migrate(AFTER).get_model("tournament", "Tournament")
        moved = new.objects.get(pk=points.pk).format_settings
        assert moved == {
            "rounds_planned": 6,
            "games_per_round": 3,
            "round_time_limit_minutes": 25,
            "points_tie_breaks": "games_won,best_round",
            "points_tie_places": "podium",
            "points_tie_resolution": "playoff",
            "points_missed_rounds": "round_highest",
            "wins_needed": 5,  # another format's, set
        }
        assert new.objects.get(pk=knockout.pk).format_settings == {
            "wins_needed": 3,
            "wins_needed_large_table": 2,
            "final_size": 3,
            "final_points_target": 500,
            "final_target_kind": "wins",
            "final_wins_target": 3,
            "duel_wins_needed": 1,
        }
        migrate(*latest())
        live = Tournament.objects.get(pk=points.pk)
        assert (live.rounds_planned, live.round_time_limit_minutes, live.wins_needed, live.life_bands) == (6, 25, 5, 2)
        back = migrate(BEFORE).get_model("tournament", "Tournament")
        row = back.objects.get(pk=points.pk)
        assert (row.rounds_planned, row.round_time_limit_minutes, row.wins_needed, row.life_bands) == (6, 25, 5, 2)
        assert back.objects.get(pk=knockout.pk).final_target_kind == "wins"
    finally:
        migrate(*latest())
    # The next test on this worker finds every app's tables as the models are.
    assert MigrationExecutor(connection).migration_plan(latest()) == []
