"""Issue 29 item 5: a seat that suits the player.

A player marked at the desk with a fixed table (wheelchair, hearing, sight) sits at that table
number in every round they play, in every format: the pure placement (``seating.place_fixed``,
``seat_avoiding_repeats(fixed=...)`` with the swap search moving only the others), the rounds
through the services on the database (the table takes the fixed number, the note says what it
cost), the desk's form (bad inputs refused, nothing saved) and the printouts and the projector
(the table marked "Fixed seat" in words).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament import enums, seating, simulation
from tournament.desk import set_fixed_seat
from tournament.errors import ServiceError
from tournament.models import AuditEntry, Player, Round, Table, Tournament
from tournament.tests.helpers import count_queries, url

# --------------------------------------------------------------------------
# Pure
# --------------------------------------------------------------------------


def fixed_field(data: st.DataObject, n: int) -> dict[int, int]:
    """1-3 fixed players of ``n`` (ids 1..n), at most 4 per number, numbers 1..8."""
    count = data.draw(st.integers(min_value=1, max_value=min(3, n)))
    ids = data.draw(st.lists(st.integers(min_value=1, max_value=n), min_size=count, max_size=count, unique=True))
    return {pid: data.draw(st.integers(min_value=1, max_value=8)) for pid in ids}


def assert_kept(
    tables: Sequence[Sequence[int]],
    numbers: Sequence[int | None],
    unkept: Sequence[seating.UnkeptSeat],
    fixed: Mapping[int, int],
) -> None:
    """Every fixed player sits at the table of their number, or is reported (with a reason)."""
    assert len(numbers) == len(tables)
    given_numbers = [number for number in numbers if number is not None]
    assert len(given_numbers) == len(set(given_numbers)), "two tables with one fixed number"
    where = {pid: index for index, table in enumerate(tables) for pid in table}
    not_kept = {seat.player for seat in unkept}
    for pid, number in fixed.items():
        if pid in not_kept:
            continue
        assert numbers[where[pid]] == number, (pid, number, tables, numbers)
    distinct = sorted(set(fixed.values()))
    for seat in unkept:
        assert seat.reason in (seating.FIXED_FEWER_TABLES, seating.FIXED_NUMBER_HELD, seating.FIXED_TABLE_FULL)
        if seat.reason == seating.FIXED_FEWER_TABLES:
            # The lowest numbers win.
            assert distinct.index(seat.number) >= len(tables)
    if len(distinct) <= len(tables) and all(
        sum(1 for n in fixed.values() if n == number) <= min(len(t) for t in tables) for number in distinct
    ):
        assert not unkept


@pytest.mark.core
@settings(max_examples=30, deadline=None)
@given(n=st.integers(min_value=3, max_value=120), seed=st.integers(min_value=0, max_value=2**31), data=st.data())
def test_a_drawn_round_keeps_every_fixed_player_at_their_table(n: int, seed: int, data: st.DataObject) -> None:
    """Knockout and life bands: the seeded draw, then ``place_fixed``, round after round with the
    field shrinking as a knockout's does (the fixed players stay in): sizes stay 3-4."""
    fixed = fixed_field(data, n)
    field = list(range(1, n + 1))
    rng = random.Random(seed)
    while len(field) >= 3:
        try:
            drawn = seating.seat_players([seating.SeatingPlayer(id=pid) for pid in field], rng.getrandbits(31))
        except seating.SeatingImpossible:
            break
        placed = seating.place_fixed(drawn.tables, fixed)
        assert sorted(len(table) for table in placed.tables) == sorted(drawn.sizes)
        assert all(3 <= len(table) <= 4 for table in placed.tables)
        assert sorted(pid for table in placed.tables for pid in table) == sorted(field)
        assert_kept(placed.tables, placed.numbers, placed.unkept, {p: n for p, n in fixed.items() if p in field})
        # One player of each table goes on (a fixed player where there is one).
        field = sorted(min(table, key=lambda pid: (pid not in fixed, pid)) for table in placed.tables)


@pytest.mark.core
@settings(max_examples=25, deadline=None)
# Five players cannot sit at tables of 3-4 (the points seating refuses them: SeatingImpossible);
# a random run drew n=5 once and failed, so the field sizes leave it out.
@given(
    n=st.integers(min_value=3, max_value=120).filter(lambda n: n != 5),
    seed=st.integers(min_value=0, max_value=2**31),
    data=st.data(),
)
def test_the_points_seating_pins_the_fixed_players_in_every_round(n: int, seed: int, data: st.DataObject) -> None:
    """Points: three re-seated rounds with the history; the fixed players stay at their numbers,
    the tables 3-4, and the repeats are those the plan reports."""
    fixed = fixed_field(data, n)
    met: dict[frozenset[int], int] = {}
    history: list[list[list[int]]] = []
    for round_number in range(3):
        plan = seating.seat_avoiding_repeats(
            range(1, n + 1),
            seed + round_number,
            met,
            seating.table_pairs(history[-1]) if history else (),
            attempts=2,
            work_limit=20_000,
            rounds_left=4 - round_number,
            fixed=fixed,
        )
        assert plan.algorithm.endswith(seating.FIXED_SUFFIX)
        assert all(3 <= len(table) <= 4 for table in plan.tables)
        assert sorted(pid for table in plan.tables for pid in table) == list(range(1, n + 1))
        assert_kept(plan.tables, plan.numbers, plan.unkept, fixed)
        assert plan.repeated_pairs == seating.count_repeated_pairs(plan.tables, met)
        met = seating.add_meetings(met, plan.tables)
        history.append([list(table) for table in plan.tables])


@pytest.mark.core
def test_players_with_one_number_sit_together_and_the_lowest_number_wins() -> None:
    tables = [(1, 2, 3), (4, 5, 6)]
    placed = seating.place_fixed(tables, {1: 7, 6: 7, 2: 9, 4: 3})
    where = {pid: index for index, table in enumerate(placed.tables) for pid in table}
    assert where[1] == where[6] and placed.numbers[where[1]] == 7
    assert placed.numbers[where[4]] == 3
    # Two tables, three numbers: 9 is the highest and is not kept, said with its reason.
    assert placed.unkept == (seating.UnkeptSeat(2, 9, seating.FIXED_FEWER_TABLES),)
    # A number a table still in play holds is not kept either.
    held = seating.place_fixed(tables, {1: 2}, held=[2])
    assert held.unkept == (seating.UnkeptSeat(1, 2, seating.FIXED_NUMBER_HELD),)
    assert held.numbers == (None, None)
    # A final of two cannot hold three players fixed to one number.
    full = seating.place_fixed([(1, 2), (3, 4)], {1: 5, 3: 5, 4: 5})
    assert [seat.reason for seat in full.unkept] == [seating.FIXED_TABLE_FULL]


@pytest.mark.core
def test_without_fixed_players_the_points_seating_is_unchanged() -> None:
    met = {frozenset((1, 2)): 1, frozenset((3, 4)): 1}
    plain = seating.seat_avoiding_repeats(range(1, 13), 5, met, rounds_left=3)
    again = seating.seat_avoiding_repeats(range(1, 13), 5, met, rounds_left=3, fixed={99: 3})
    assert plain == again


# --------------------------------------------------------------------------
# Through the services (PostgreSQL), one small field per format
# --------------------------------------------------------------------------


def fix(tournament: Tournament, seats: Mapping[int, int], need: str = enums.SeatNeed.WHEELCHAIR) -> list[Player]:
    """Fix the players with start numbers ``seats`` (start number -> table) at the desk."""
    players = []
    for start_number, number in seats.items():
        player = Player.objects.get(tournament=tournament, start_number=start_number)
        players.append(set_fixed_seat(tournament=tournament, actor=None, player_id=player.pk, number=number, need=need))
    return players


def assert_every_round_kept(tournament: Tournament, fixed: Mapping[int, int]) -> None:
    """Each table holding a fixed player is at their number and marked; the notes of the rounds
    with one say what the seats cost (or why one was not kept)."""
    seen = 0
    for table in Table.objects.filter(round__tournament=tournament).prefetch_related("seats"):
        here = [fixed[seat.player_id] for seat in table.seats.all() if seat.player_id in fixed]
        if not here:
            continue
        seen += 1
        assert table.number == min(here), (table, here)
        assert table.fixed_seat and table.fixed_need == enums.SeatNeed.WHEELCHAIR
        assert "Fixed seat" in table.round.seating_note
    assert seen


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fmt", "players", "seats"),
    [
        (enums.Format.KNOCKOUT, 10, {2: 5}),
        (enums.Format.LIFE_BANDS, 8, {1: 4, 5: 2}),
        (enums.Format.POINTS, 10, {3: 6, 7: 6}),
    ],
)
def test_every_format_keeps_the_fixed_players_at_their_table_in_every_round(
    fmt: str, players: int, seats: dict[int, int]
) -> None:
    tournament = simulation.create_field(fmt=fmt, players=players, seed=11)
    if fmt == enums.Format.POINTS:
        tournament.rounds_planned = 3
        tournament.save(update_fields=["rounds_planned"])
    fixed = {player.pk: player.fixed_table for player in fix(tournament, seats)}
    with translation.override("en"):
        simulation.simulate(tournament, seed=3)
    assert_every_round_kept(tournament, fixed)
    notes = " ".join(Round.objects.filter(tournament=tournament).values_list("seating_note", flat=True))
    assert "Fixed seats kept:" in notes
    # Every round that seated a fixed player says what the fixed seats cost in repeats (points:
    # against the seating without them; the draws: against the draw as it came).
    for rnd in Round.objects.filter(tournament=tournament, tables__seats__player_id__in=list(fixed)).distinct():
        assert "Fixed seats: cost no repeats." in rnd.seating_note or "more repeated meeting" in rnd.seating_note, (
            rnd,
            rnd.seating_note,
        )


@pytest.mark.django_db
def test_the_knockout_final_is_played_at_the_fixed_table_and_a_second_number_is_said_in_words() -> None:
    """A final of one table with two fixed players of different numbers: the lowest number wins
    and the note names whose seat was not kept, and why."""
    from tournament.tests.formats.knockout.arrange import up_to_the_final

    final = up_to_the_final(9, seed=5)
    tournament = final.tournament
    assert tournament.status != enums.TournamentStatus.FINISHED
    # A fresh final, seated again with two fixed finalists (numbers 8 and 6).
    first, second = final.players[:2]
    for pid, number in ((first, 8), (second, 6)):
        set_fixed_seat(tournament=tournament, actor=None, player_id=pid, number=number, need="")
    from tournament.play import rounds

    placed = rounds.place_and_number(tournament.id, [tuple(final.players)])
    assert placed.numbers == [6]
    assert any("not kept" in note and "8" in note for note in placed.notes)
    assert placed.fixed == [True]


@pytest.mark.django_db
def test_other_tables_skip_a_number_reserved_for_a_fixed_player_in_play() -> None:
    from tournament.play import rounds

    tournament = simulation.create_field(fmt=enums.Format.POINTS, players=9, seed=2)
    [player] = fix(tournament, {4: 1})
    others = [
        pid for pid in Player.objects.filter(tournament=tournament).values_list("pk", flat=True) if pid != player.pk
    ]
    placed = rounds.number_tables(
        tournament.id, [others[:3], others[3:6]], [None, None], reserved=rounds.reserved_numbers(tournament.id)
    )
    assert 1 not in placed.numbers and placed.numbers == [2, 3]


# --------------------------------------------------------------------------
# The desk's form
# --------------------------------------------------------------------------


@pytest.fixture
def desk_client(client, django_user_model):  # type: ignore[no-untyped-def]
    tournament = simulation.create_field(fmt=enums.Format.POINTS, players=6, seed=1)
    user = django_user_model.objects.create_user("desk", password="pw-12345678")
    from tournament.models import StaffRole

    StaffRole.objects.create(tournament=tournament, user=user, role=enums.Role.DESK)
    client.force_login(user)
    return client, tournament


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("table", "need", "message"),
    [
        ("0", "wheelchair", "greater than or equal to 1"),
        ("-3", "wheelchair", "greater than or equal to 1"),
        ("five", "wheelchair", "whole number"),
        ("", "hearing", "Give the table number"),
        ("2", "skateboard", "Select a valid choice"),
    ],
)
def test_bad_inputs_are_refused_with_a_message_and_nothing_is_saved(desk_client, table, need, message) -> None:  # type: ignore[no-untyped-def]
    client, tournament = desk_client
    player = Player.objects.filter(tournament=tournament).first()
    version = Tournament.objects.get(pk=tournament.pk).version
    with translation.override("en"):
        response = client.post(url("fixed_seat", tournament, player.pk), {"table": table, "need": need})
    assert response.status_code == 422
    assert message in response.content.decode()
    player.refresh_from_db()
    assert player.fixed_table is None and player.seat_need == ""
    assert Tournament.objects.get(pk=tournament.pk).version == version


@pytest.mark.django_db
def test_more_fixed_players_for_one_number_than_the_largest_table_are_refused(desk_client) -> None:  # type: ignore[no-untyped-def]
    client, tournament = desk_client
    players = list(Player.objects.filter(tournament=tournament).order_by("start_number"))
    for player in players[: tournament.table_size_max]:
        response = client.post(url("fixed_seat", tournament, player.pk), {"table": "3", "need": "sight"})
        assert response.status_code == 302
    extra = players[tournament.table_size_max]
    with translation.override("en"):
        response = client.post(url("fixed_seat", tournament, extra.pk), {"table": "3", "need": "sight"})
    assert response.status_code == 422
    assert "already keeps 4 fixed seats" in response.content.decode()
    extra.refresh_from_db()
    assert extra.fixed_table is None
    # Saved ones are audited, and clearing works.
    assert AuditEntry.objects.filter(tournament=tournament, action="fixed_seat_set").count() == 4
    response = client.post(url("fixed_seat", tournament, players[0].pk), {"table": "", "need": ""})
    assert response.status_code == 302
    players[0].refresh_from_db()
    assert players[0].fixed_table is None


@pytest.mark.django_db
def test_the_service_refuses_a_need_without_a_number_and_an_unknown_need() -> None:
    tournament = simulation.create_field(fmt=enums.Format.POINTS, players=3, seed=1)
    pid = Player.objects.filter(tournament=tournament).first().pk
    for number, need in ((None, "hearing"), (0, ""), (2, "nonsense")):
        with pytest.raises(ServiceError):
            set_fixed_seat(tournament=tournament, actor=None, player_id=pid, number=number, need=need)
    assert not Player.objects.filter(pk=pid, fixed_table__isnull=False).exists()


@pytest.mark.django_db
def test_the_fixed_seat_page_costs_the_same_queries_at_two_sizes(client, django_user_model) -> None:  # type: ignore[no-untyped-def]
    from tournament.models import StaffRole

    user = django_user_model.objects.create_user("desk2", password="pw-12345678")
    client.force_login(user)
    counts = []
    for players in (4, 12):
        tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=players, seed=players)
        StaffRole.objects.create(tournament=tournament, user=user, role=enums.Role.DESK)
        player = Player.objects.filter(tournament=tournament).last()
        counts.append(count_queries(client, url("fixed_seat", tournament, player.pk)))
    assert counts[0] == counts[1]


# --------------------------------------------------------------------------
# Printouts and the projector
# --------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_printouts_and_the_projector_mark_the_fixed_table_in_words(client, django_user_model) -> None:  # type: ignore[no-untyped-def]
    from tournament.formats.points import services as points_services
    from tournament.models import StaffRole

    tournament = simulation.create_field(fmt=enums.Format.POINTS, players=7, seed=4)
    fix(tournament, {2: 5})
    points_services.start_round(tournament=tournament, actor=None, seed=9)
    table = Table.objects.get(round__tournament=tournament, number=5)
    assert table.fixed_seat
    user = django_user_model.objects.create_user("org", password="pw-12345678")
    StaffRole.objects.create(tournament=tournament, user=user, role=enums.Role.ORGANISER)
    StaffRole.objects.create(tournament=tournament, user=user, role=enums.Role.DESK)
    client.force_login(user)
    with translation.override("en"):
        pack = client.get(url("print_pack", tournament)).content.decode()
        assert "1 fixed seat" in pack
        for name in ("print_seating", "print_table_cards"):
            page = client.get(url(name, tournament, 1)).content.decode()
            assert "Fixed seat: Wheelchair access" in page, name
        by_name = client.get(url("print_seating_by_name", tournament, 1)).content.decode()
        assert "(fixed seat)" in by_name
        tournament.refresh_from_db()
        screen = client.get(f"/p/{tournament.public_key}/screen/").content.decode()
        assert "Fixed seat" in screen
        # The public is not told the need.
        assert "Wheelchair" not in screen


@pytest.mark.django_db
def test_the_points_preview_shows_the_fixed_table_and_its_cost(client, django_user_model) -> None:  # type: ignore[no-untyped-def]
    from tournament.models import StaffRole

    tournament = simulation.create_field(fmt=enums.Format.POINTS, players=7, seed=4)
    fix(tournament, {2: 5})
    user = django_user_model.objects.create_user("org2", password="pw-12345678")
    StaffRole.objects.create(tournament=tournament, user=user, role=enums.Role.ORGANISER)
    client.force_login(user)
    with translation.override("en"):
        page = client.get(url("points_preview", tournament, 1) + "?seed=3").content.decode()
    assert 'data-table="5"' in page and "Fixed seat" in page
    assert "Fixed seats: cost no repeats." in page
