"""The phone page and the referee's table of a life-bands tournament say where a player is:
at a table (bands and chips), in the consolation pool, waiting for the next main round, or out
of the grand final with the place that decided (never "None", never a band cut there)."""

from __future__ import annotations

import html
import random
import re
import uuid

import pytest
from django.urls import reverse

from tournament import enums, simulation
from tournament.errors import NeedsChoice, ServiceError
from tournament.formats.life_bands import dry_run, services
from tournament.formats.life_bands import selectors as life_bands_selectors
from tournament.models import Player, PoolEntry, Seat, Table, Tournament
from tournament.tests.helpers import seated, url

pytestmark = [pytest.mark.django_db]


def phone(client, tournament: Tournament, start_number: int, language: str = "en") -> str:  # type: ignore[no-untyped-def]
    """The phone page's result card for one start number, as text."""
    path = reverse("tournament:find", args=[tournament.public_key]) + f"?q={start_number}"
    body = client.get(path, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    card = body[body.index('id="find-results"') :]
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", card)))


def advance(tournament: Tournament, rng: random.Random) -> bool:
    try:
        try:
            return services.advance(tournament=tournament, actor=None, seed=rng.getrandbits(31))
        except NeedsChoice as choice:
            code = choice.options[0].code
            return services.advance(tournament=tournament, actor=None, seed=rng.getrandbits(31), choice=code)
    except ServiceError:
        return False


def play_until(tournament: Tournament, done, *, seed: int = 5, form_pool: bool = True) -> None:  # type: ignore[no-untyped-def]
    """Seat and lose games at random (one game at a time) until ``done(tournament)``."""
    rng = random.Random(seed)
    for _ in range(2000):
        tournament.refresh_from_db()
        if done(tournament):
            return
        assert tournament.status != enums.TournamentStatus.FINISHED, "finished before the state was reached"
        where = life_bands_selectors.state(tournament)
        may_seat = (not where.main_open and not where.main_done) or (form_pool and len(where.pool) >= 3)
        if (may_seat or where.main_done) and advance(tournament, rng):
            continue
        playing = list(Table.objects.filter(round__tournament=tournament, status=enums.TableStatus.PLAYING))
        if not playing:
            assert advance(tournament, rng), "nothing to play and nothing to seat"
            continue
        table = rng.choice(playing)
        alive = sorted(table.seats.filter(out_order__isnull=True).values_list("player_id", flat=True))
        services.record_loss(
            tournament=tournament,
            actor=None,
            table_id=table.pk,
            loser_id=rng.choice(alive),
            version=table.version,
            idempotency_key=uuid.uuid4().hex,
        )
    raise AssertionError("the state was never reached")


def test_between_rounds_the_phone_says_what_a_player_waits_for(client) -> None:
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=11, seed=7)

    def between_rounds(t: Tournament) -> bool:
        where = life_bands_selectors.state(t)
        return bool(where.main_round and not where.main_open and where.main_survivors and where.pool)

    play_until(tournament, between_rounds, form_pool=False)
    where = life_bands_selectors.state(tournament)
    number = dict(Player.objects.filter(tournament=tournament).values_list("pk", "start_number"))
    survivor = phone(client, tournament, number[where.main_survivors[0]])
    assert "Next main round" in survivor and "2 life bands left" in survivor, survivor
    waiting = phone(client, tournament, number[where.pool[0]])
    assert "Consolation pool" in waiting and "You wait in the consolation pool" in waiting, waiting
    assert "1 life band left" in waiting
    german = phone(client, tournament, number[where.pool[0]], "de")
    assert "Trostrunden-Pool" in german and "Sie warten" in german, german
    # Seated again: the table, the seat, the bands and the chips there.
    assert advance(tournament, random.Random(1))
    seat = Seat.objects.filter(table__round__tournament=tournament, table__status=enums.TableStatus.PLAYING).first()
    at_table = phone(client, tournament, seat.player.start_number)
    assert f"seat {seat.position + 1}" in at_table and "chips at this table" in at_table, at_table


def test_out_of_the_grand_final_the_phone_and_the_table_give_the_place(client, staff_user) -> None:
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=7, seed=3)

    def one_out_of_the_grand_final(t: Tournament) -> bool:
        return Seat.objects.filter(
            table__round__tournament=t, table__round__stage=enums.Stage.GRAND_FINAL, out_order__isnull=False
        ).exists()

    play_until(tournament, one_out_of_the_grand_final)
    seat = Seat.objects.select_related("player", "table").get(
        table__round__tournament=tournament, table__round__stage=enums.Stage.GRAND_FINAL, out_order__isnull=False
    )
    assert seat.table.status == enums.TableStatus.PLAYING and seat.place == len(seated(seat.table))
    text = phone(client, tournament, seat.player.start_number)
    assert f"Final place: {seat.place}" in text and "You went out of the grand final" in text, text
    assert f"Grand final · Table 1: out · place {seat.place}" in text, text
    assert "band cut · place" not in text and "None" not in text
    german = phone(client, tournament, seat.player.start_number, "de")
    assert f"ausgeschieden · Platz {seat.place}" in german and "Band abgeschnitten · Platz" not in german
    client.force_login(staff_user(tournament, enums.Role.REFEREE))
    table_page = client.get(url("referee_table", tournament, seat.table.pk)).content.decode()
    assert f"out · place {seat.place}" in table_page and "None" not in table_page
    # The ranking: those still in the grand final above the one out, who holds place 4.
    ranking = life_bands_selectors.ranking(tournament)
    assert [row.player.pk for row in ranking].index(seat.player_id) == seat.place - 1
    # Played to its end, the places stay those of the order of elimination.
    dry_run.simulate(tournament, seed=1)
    seat.refresh_from_db()
    assert [row.player.pk for row in life_bands_selectors.ranking(tournament)].index(seat.player_id) == seat.place - 1


def test_through_from_the_pool_the_phone_says_wait_for_the_grand_final(client) -> None:
    """Four players: the main round's final table leaves two in the pool with nothing more to come;
    they go to the grand final without another table and wait for its seating."""
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=4, seed=1)

    def through_from_the_pool(t: Tournament) -> bool:
        return PoolEntry.objects.filter(tournament=t, left_reason=PoolEntry.Left.QUALIFIED).exists()

    play_until(tournament, through_from_the_pool)
    assert life_bands_selectors.state(tournament).grand_final is None
    entry = PoolEntry.objects.filter(tournament=tournament, left_reason=PoolEntry.Left.QUALIFIED).first()
    text = phone(client, tournament, entry.player.start_number)
    assert "Grand final reached" in text and "Wait for the grand final's seating." in text, text
    assert "1 life band left" not in text  # the bands do not count in the grand final
