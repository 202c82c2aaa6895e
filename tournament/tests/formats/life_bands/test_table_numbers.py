"""Issue 27, items 1 and 3: a table number names one table while it is in play, and in
automatic mode the last tap of a round can still be undone at the table.

- Numbers: a new table takes the smallest number no table of the tournament still in play
  holds (``play.rounds.in_play``; pure: ``seating.smallest_free_number``), so the consolation
  round's tables and main round 2's never share a number while they play; a number comes free
  when its table is closed or its round finished (main round 1 once main round 2 is seated),
  and a decided table is closed when one of its players is seated at a consolation table.
- "Where do I sit?" names the round with the table where rounds play at once, and lists the
  players between rounds with the round they wait for.
- Automatic mode: the next round is seated when the last table is closed, not when it is
  decided (``life_bands.services._after_close``): the referee undoes a wrong last tap, and the
  table page offers undo and close until then.
"""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from tournament import enums, seating, simulation
from tournament.formats.life_bands import dry_run
from tournament.formats.life_bands import services as life_bands_services
from tournament.models import PoolEntry, Round, Table, Tournament
from tournament.play import rounds
from tournament.selectors import screen

# --------------------------------------------------------------------------
# Pure
# --------------------------------------------------------------------------


@pytest.mark.core
@given(held=st.sets(st.integers(min_value=1, max_value=60), max_size=40))
def test_the_smallest_free_number_is_free_and_nothing_below_it_is(held: set[int]) -> None:
    number = seating.smallest_free_number(held)
    assert number >= 1 and number not in held
    assert all(smaller in held for smaller in range(1, number))
    # Seating the tables one after another never gives a number twice.
    taken = set(held)
    for _ in range(5):
        taken.add(seating.smallest_free_number(taken))
    assert len(taken) == len(held) + 5


# --------------------------------------------------------------------------
# Through the services
# --------------------------------------------------------------------------

pytestmark = pytest.mark.django_db


def lose(tournament: Tournament, table: Table, pid: int) -> None:
    table.refresh_from_db()
    life_bands_services.record_loss(
        tournament=tournament,
        actor=None,
        table_id=table.pk,
        loser_id=pid,
        version=table.version,
        idempotency_key=uuid.uuid4().hex,
    )


def seated(table: Table) -> list[int]:
    return list(table.seats.order_by("position").values_list("player_id", flat=True))


def decide(tournament: Tournament, table: Table, *losers: int) -> None:
    """Each of ``losers`` loses both chips (in turn), which decides a table of 3 or 4."""
    for pid in losers:
        lose(tournament, table, pid)
        lose(tournament, table, pid)
    table.refresh_from_db()
    assert table.status == enums.TableStatus.DECIDED


def numbers_in_play(tournament: Tournament) -> list[int]:
    return sorted(
        rounds.in_play(tournament.pk).filter(status=enums.TableStatus.PLAYING).values_list("number", flat=True)
    )


@pytest.fixture
def evening() -> Tournament:
    """The organiser's evening of 11 players (German): main round 1 at 4 + 4 + 3, every table
    decided, a consolation table formed from the pool, then main round 2, while the consolation
    table plays."""
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=11, seed=27)
    first = life_bands_services.start_main_round(tournament=tournament, actor=None, seed=27)
    assert first is not None
    tables = list(first.tables.order_by("number"))
    assert sorted(len(seated(t)) for t in tables) == [3, 4, 4]
    for table in tables:
        out = 2 if len(seated(table)) == 4 else 1
        decide(tournament, table, *seated(table)[:out])
    consolation = life_bands_services.form_consolation_tables(tournament=tournament, actor=None, seed=1)
    assert consolation
    second = life_bands_services.start_main_round(tournament=tournament, actor=None, seed=2)
    assert second is not None
    return tournament


def test_the_consolation_table_and_main_round_2_never_share_a_number(evening: Tournament) -> None:
    playing = Table.objects.filter(round__tournament=evening, status=enums.TableStatus.PLAYING).select_related("round")
    stages = {table.round.stage for table in playing}
    assert stages == {enums.Stage.MAIN, enums.Stage.CONSOLATION}
    numbers = [table.number for table in playing]
    assert len(numbers) == len(set(numbers)), [str(t) for t in playing]
    # One sequence of free numbers: the tables in play are numbered 1..n.
    assert sorted(numbers) == list(range(1, len(numbers) + 1))


def test_a_decided_table_keeps_its_number_until_its_players_move_on() -> None:
    """Main round 1 of 8 (two tables of 4): table 1 decided, its two cut players and a third
    waiting player... table 2 still plays. A consolation table seated from table 1's players
    closes table 1 (they sit elsewhere: no undo there any more) and takes its number."""
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=8, seed=5)
    first = life_bands_services.start_main_round(tournament=tournament, actor=None, seed=5)
    assert first is not None
    one, two = first.tables.order_by("number")
    decide(tournament, one, *seated(one)[:2])
    lose(tournament, two, seated(two)[0])
    lose(tournament, two, seated(two)[0])  # cut: three wait in the pool, table 2 plays on
    (table,) = life_bands_services.form_consolation_tables(tournament=tournament, actor=None, seed=1)
    one.refresh_from_db()
    assert one.status == enums.TableStatus.CLOSED
    assert table.number == 1 and two.number == 2
    assert numbers_in_play(tournament) == [1, 2]


def test_a_reopened_table_whose_number_was_taken_gets_a_free_one(evening: Tournament) -> None:
    """``rounds.keep_numbers_apart``: the table that went on playing keeps its number."""
    consolation = Table.objects.get(round__tournament=evening, round__stage=enums.Stage.CONSOLATION)
    main_two = Table.objects.filter(round__tournament=evening, round__stage=enums.Stage.MAIN, status="playing")
    taken = main_two.exclude(number=consolation.number).first()
    assert taken is not None
    Table.objects.filter(pk=consolation.pk).update(number=taken.number)  # as if reopened onto it
    consolation.refresh_from_db()
    moved = rounds.keep_numbers_apart([consolation])
    assert [(table.pk, old) for table, old in moved] == [(consolation.pk, taken.number)]
    consolation.refresh_from_db()
    assert consolation.number != taken.number
    assert numbers_in_play(evening) == list(range(1, len(numbers_in_play(evening)) + 1))


def test_where_do_i_sit_names_the_round_and_who_waits(evening: Tournament) -> None:
    """The projector's list in German: each seated player with the round and the table, the
    players in the pool with the round they wait for; the same from the windowed read."""
    in_pool = set(
        PoolEntry.objects.filter(tournament=evening, left_at__isnull=True).values_list("player__name", flat=True)
    )
    assert in_pool  # 5 cut players: 3 seated at the consolation table, 2 wait
    with translation.override("de"):
        lines = screen.read(evening).alphabetical
        playing = Table.objects.filter(round__tournament=evening, status=enums.TableStatus.PLAYING)
        for table in playing.select_related("round"):
            for name in table.seats.values_list("player__name", flat=True):
                line = next(line for line in lines if line.name == name)
                assert (line.round_label, line.place) == (str(table.round), f"Tisch {table.number}")
        waiting = {line.name: line for line in lines if line.waiting}
        assert set(waiting) == in_pool
        assert {(line.round_label, line.place) for line in waiting.values()} == {("Trostrunde", "wartet")}
        assert len(lines) == len({line.name for line in lines})
        Tournament.objects.filter(pk=evening.pk).update(capacity=screen.WHOLE_READ_CAPACITY + 1)
        evening.refresh_from_db()
        assert screen.read(evening).alphabetical == lines


def test_survivors_wait_for_the_next_main_round_on_the_projector() -> None:
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=8, seed=6)
    first = life_bands_services.start_main_round(tournament=tournament, actor=None, seed=6)
    assert first is not None
    one, _two = first.tables.order_by("number")
    decide(tournament, one, *seated(one)[:2])
    survivors = set(one.seats.filter(out_order__isnull=True).values_list("player__name", flat=True))
    lines = {line.name: line for line in screen.read(tournament).alphabetical}
    assert {name for name, line in lines.items() if line.round_label == "Main round 2"} == survivors
    assert all(lines[name].waiting and lines[name].place == "waiting" for name in survivors)


# --------------------------------------------------------------------------
# Automatic mode: the last tap can be undone
# --------------------------------------------------------------------------


@pytest.fixture
def automatic() -> tuple[Tournament, list[Table]]:
    """Six players, automatic advancement: main round 1 at two tables of 3, table 1 decided."""
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=6, seed=8)
    Tournament.objects.filter(pk=tournament.pk).update(auto_advance=True)
    tournament.refresh_from_db()
    first = life_bands_services.start_main_round(tournament=tournament, actor=None, seed=8)
    assert first is not None
    tables = list(first.tables.order_by("number"))
    decide(tournament, tables[0], seated(tables[0])[0])
    life_bands_services.close_table(
        tournament=tournament, actor=None, table_id=tables[0].pk, version=Table.objects.get(pk=tables[0].pk).version
    )
    return tournament, tables


def test_the_last_main_tables_wrong_tap_is_undone_in_automatic_mode(automatic) -> None:  # type: ignore[no-untyped-def]
    tournament, (_one, last) = automatic
    wrong, right, *_ = seated(last)
    decide(tournament, last, wrong)  # the referee tapped the wrong player twice
    assert Round.objects.filter(tournament=tournament, stage=enums.Stage.MAIN).count() == 1, "nothing seated yet"
    last.refresh_from_db()
    life_bands_services.undo_last_loss(tournament=tournament, actor=None, table_id=last.pk, version=last.version)
    last.refresh_from_db()
    assert last.status == enums.TableStatus.PLAYING
    assert not PoolEntry.objects.filter(player_id=wrong, left_at__isnull=True).exists()
    # Put right: the right player's two chips, then the referee closes: main round 2 is seated.
    life_bands_services.undo_last_loss(tournament=tournament, actor=None, table_id=last.pk, version=last.version)
    decide(tournament, last, right)
    last.refresh_from_db()
    life_bands_services.close_table(tournament=tournament, actor=None, table_id=last.pk, version=last.version)
    main_two = Round.objects.get(tournament=tournament, stage=enums.Stage.MAIN, stage_number=2)
    finalists = set(main_two.tables.get().seats.values_list("player_id", flat=True))
    assert wrong in finalists and right not in finalists
    assert PoolEntry.objects.filter(player_id=right, left_at__isnull=True).exists()


def test_the_table_page_offers_undo_and_close_until_the_close(client, staff_user, automatic) -> None:  # type: ignore[no-untyped-def]
    tournament, (_one, last) = automatic
    decide(tournament, last, seated(last)[0])
    client.force_login(staff_user(tournament, enums.Role.REFEREE))
    page = client.get(reverse("tournament:referee_table", args=[tournament.pk, last.pk])).content.decode()
    assert reverse("tournament:undo_game", args=[tournament.pk, last.pk]) in page
    assert reverse("tournament:close_table", args=[tournament.pk, last.pk]) in page
    assert 'id="moves-on-at-close"' in page
    # The organiser's rounds page says what the next step waits for.
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    organiser = client.get(reverse("tournament:rounds", args=[tournament.pk])).content.decode()
    assert 'id="awaiting-close"' in organiser and str(last) in organiser
    client.force_login(staff_user(tournament, enums.Role.REFEREE))
    last.refresh_from_db()
    closed = client.post(
        reverse("tournament:close_table", args=[tournament.pk, last.pk]),
        {"version": last.version},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    # The referee sees what happened: where the table's players went.
    assert 'id="went-on"' in closed and "Main round 2 · Table 1" in closed
    assert reverse("tournament:undo_game", args=[tournament.pk, last.pk]) not in closed


def test_the_dry_run_in_automatic_mode_still_finishes() -> None:
    """With automatic advancement the tables wait for their close: the dry run closes them as
    a referee would (``dry_run.simulate``)."""
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=13, seed=13)
    Tournament.objects.filter(pk=tournament.pk).update(auto_advance=True)
    tournament.refresh_from_db()
    dry_run.simulate(tournament, seed=13)
    tournament.refresh_from_db()
    assert tournament.status == enums.TournamentStatus.FINISHED
