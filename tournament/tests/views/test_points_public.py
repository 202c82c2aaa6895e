"""The Italian points evening's public pages and words (issue 28), in Italian and German.

The phone page says each player's total and place (read from the standings' rows), the
right sentence while paused, withdrawn, not seated yet or between rounds; the projector and
api.json carry none of the planner's figures and no column of table winners; rounds are
"Turno 2"/"Runde 2"; a correction's preview speaks of totals and places, not of going on; the
games CSV says the cards as cards; a superseded game reads "Sostituita"/"Ersetzt".
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, GameScore, GameStatus
from tournament import enums
from tournament.formats import registry
from tournament.models import Player, Tournament
from tournament.play import corrections
from tournament.selectors import ranking as ranking_selectors
from tournament.tests.formats.points.evening import Evening, evening
from tournament.tests.formats.points.helpers import valid_points
from tournament.tests.helpers import refreshed, set_settings

pytestmark = pytest.mark.django_db

PLANNER_WORDS = (
    "Coppie ripetute",
    "inevitabili",
    "Tavoli più piccoli",
    "Wiederholte Paare",
    "unvermeidbar",
    "Repeated pairs",
    "unavoidable",
)


def text(html: str) -> str:
    """The words of a page, tags and scripts taken out, spaces joined."""
    html = re.sub(r"<script.*?</script>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def phone(client: Client, tournament: Tournament, player: Player, language: str) -> str:
    response = client.get(
        reverse("tournament:find", args=[tournament.public_key]),
        {"q": str(player.start_number)},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 200
    words = text(response.content.decode())
    return words[words.index(player.name) :]  # the player's card (the page's head names the tournament)


@pytest.fixture
def night() -> Iterator[Evening]:
    yield evening()


def total_by_hand(player: Player) -> int:
    """The player's valid points summed from every score (a player who played every round)."""
    return sum(GameScore.objects.filter(player=player, game__status=GameStatus.VALID).values_list("points", flat=True))


def test_the_phone_says_total_place_and_rounds(client, night: Evening) -> None:
    tournament, done = night.tournament, night.done
    rows = {row.player.pk: row for row in ranking_selectors.rows(tournament)}
    total = total_by_hand(done)
    assert total == valid_points(tournament)[done.pk] == rows[done.pk].points  # played both rounds: no missed round
    card = phone(client, tournament, done, "it")
    assert f"Totale {total} punt" in card
    assert f"Posto in classifica {rows[done.pk].place}" in card
    assert "Turno 2 finito" in card and "Attendi l'assegnazione dei posti del turno 3" in card
    assert "Turno 1 · Tavolo" in card and "Turno 2 · Tavolo" in card
    assert "Turno principale" not in card
    german = phone(client, tournament, done, "de")
    assert f"Summe {total} Punkt" in german and f"Platz in der Rangliste {rows[done.pk].place}" in german
    assert "Warten Sie auf die Sitzordnung von Runde 3" in german and "Hauptrunde" not in german


def test_the_phone_at_a_playing_table_names_it_and_the_points_so_far(client, night: Evening) -> None:
    card = phone(client, night.tournament, night.playing, "it")
    assert f"Tavolo {night.playing_table.number} · sedia" in card and "Turno 2" in card
    assert "punti finora" in card or "punto finora" in card
    assert "Il tuo tavolo ha finito" not in card


def test_the_phone_tells_a_paused_player_they_pause(client, night: Evening) -> None:
    card = phone(client, night.tournament, night.paused, "it")
    assert "In pausa" in card and "Sei in pausa dal turno 2" in card
    assert "Il tuo tavolo ha finito" not in card
    german = phone(client, night.tournament, night.paused, "de")
    assert "Sie setzen ab Runde 2 aus" in german and "Ihr Tisch ist fertig" not in german


def test_the_phone_tells_a_withdrawn_player(client, night: Evening) -> None:
    card = phone(client, night.tournament, night.withdrawn, "it")
    assert "Ti sei ritirato dopo il turno 1" in card and "Il tuo tavolo ha finito" not in card
    assert "Sie haben sich nach Runde 1 abgemeldet" in phone(client, night.tournament, night.withdrawn, "de")


def test_the_phone_tells_a_late_arrival_when_they_play(client, night: Evening) -> None:
    card = phone(client, night.tournament, night.waiting, "it")
    assert "Giochi dal turno 3" in card
    assert "primo turno" not in card and "Totale" not in card  # no games: no total, no place yet
    joined = phone(client, night.tournament, night.joined, "it")
    assert "entrato al turno 2" in joined and "Totale" in joined


def test_the_phone_writes_the_date_as_italian_does(client, night: Evening) -> None:
    Tournament.objects.filter(pk=night.tournament.pk).update(date="2026-11-27")
    response = client.get(reverse("tournament:find", args=[night.tournament.public_key]), HTTP_ACCEPT_LANGUAGE="it")
    assert "27 novembre 2026" in text(response.content.decode())
    response = client.get(reverse("tournament:find", args=[night.tournament.public_key]), HTTP_ACCEPT_LANGUAGE="en")
    assert "27 November 2026" in text(response.content.decode())


@pytest.mark.parametrize("language", ["it", "de", "en"])
def test_projector_and_api_show_no_planner_figures(client, night: Evening, language: str) -> None:
    tournament = night.tournament
    note = night.second.seating_note
    assert note  # the organiser's figures exist: the rounds page shows them
    screen = client.get(
        reverse("tournament:projector_screen", args=[tournament.public_key]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    api = client.get(reverse("tournament:api", args=[tournament.public_key]), HTTP_ACCEPT_LANGUAGE=language)
    document = api.content.decode()
    for page in (screen, document):
        assert note not in page
        for words in PLANNER_WORDS:
            assert words not in page
    # No column of each table's best player numbered by table: the standings say what counts.
    assert 'data-view="bracket"' not in screen
    assert 'data-view="standings"' in screen and 'data-view="tables"' in screen
    assert all(rnd["note"] == "" for rnd in api.json()["rounds"])


def organiser_client(client: Client, tournament: Tournament, staff_user) -> Client:  # type: ignore[no-untyped-def]
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    return client


def test_rounds_page_names_rounds_of_the_points_format(client, staff_user, night: Evening) -> None:
    tournament = night.tournament
    organiser_client(client, tournament, staff_user)
    page = text(
        client.get(reverse("tournament:rounds", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    )
    assert "Turno 2" in page and "Turno principale" not in page
    page = text(
        client.get(reverse("tournament:rounds", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    )
    assert "Runde 2" in page and "Hauptrunde" not in page


def test_the_step_counts_rounds_played_in_the_singular(client, staff_user) -> None:
    from tournament.tests.formats.points.helpers import play_round, points_field, start

    tournament = points_field(players=9)
    set_settings(tournament, rounds_planned=4, games_per_round=1)
    play_round(tournament, start(tournament))
    organiser_client(client, tournament, staff_user)
    page = text(
        client.get(reverse("tournament:rounds", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    )
    assert "1 turno giocato su 4 · 1 partita per tavolo" in page
    assert "turni giocati" not in page


def correct_last_game(tournament: Tournament, table_id: int) -> corrections.ConfirmConsequences:
    table = refreshed(night_table(table_id))
    game = table.games.filter(status=GameStatus.VALID).order_by("-number").first()
    assert game is not None
    seats = list(table.seats.order_by("position").values_list("player_id", flat=True))
    new_winner = next(pid for pid in seats if pid != game.winner_id)
    with pytest.raises(corrections.ConfirmConsequences) as asked:
        corrections.correct_game(
            tournament=tournament,
            fmt=registry.of(tournament),
            actor=None,
            table_id=table.pk,
            game_id=game.pk,
            version=table.version,
            reason="Conto sbagliato",
            winner_id=new_winner,
            card_points={pid: 40 for pid in seats if pid != new_winner},
        )
    return asked.value


def night_table(table_id: int):  # type: ignore[no-untyped-def]
    from tournament.models import Table

    return Table.objects.get(pk=table_id)


@pytest.mark.parametrize(
    ("language", "goes_on", "standings"), [("it", "prosegue", "Classifica:"), ("de", "kommt weiter", "Rangliste:")]
)
def test_a_points_correction_says_totals_and_places(
    night: Evening, language: str, goes_on: str, standings: str
) -> None:
    from django.utils import translation

    tournament = night.tournament
    table = night.second.tables.exclude(pk=night.playing_table.pk).order_by("number").first()
    assert table is not None
    with translation.override(language):
        asked = correct_last_game(tournament, table.pk)
    lines = " ".join(asked.lines)
    assert goes_on not in lines and "→" in lines
    assert standings in lines  # the totals move, and with them places
    with translation.override("en"):
        english = " ".join(correct_last_game(tournament, table.pk).lines)
    assert "goes on" not in english and "points" in english


def test_games_csv_says_cards_as_cards_and_superseded(client, staff_user, night: Evening) -> None:
    tournament = night.tournament
    table = night.second.tables.exclude(pk=night.playing_table.pk).order_by("number").first()
    assert table is not None
    # A correction with the calculator's hands: 2 sevens and a wild left to the others.
    game = table.games.filter(status=GameStatus.VALID).order_by("-number").first()
    assert game is not None
    seats = list(table.seats.order_by("position").values_list("player_id", flat=True))
    winner = game.winner_id
    kwargs = {
        "tournament": tournament,
        "fmt": registry.of(tournament),
        "actor": None,
        "table_id": table.pk,
        "game_id": game.pk,
        "version": refreshed(table).version,
        "reason": "Carte contate male",
        "winner_id": winner,
        "hands": {pid: {"7": 2, "wild": 1} for pid in seats if pid != winner},
    }
    with pytest.raises(corrections.ConfirmConsequences) as asked:
        corrections.correct_game(**kwargs)  # type: ignore[arg-type]
    corrections.correct_game(**kwargs, confirm=asked.value.fingerprint)  # type: ignore[arg-type]
    assert Game.objects.get(pk=game.pk).status == GameStatus.SUPERSEDED
    organiser_client(client, tournament, staff_user)
    for language, superseded, wild in (
        ("it", "Sostituita", "Jolly"),
        ("de", "Ersetzt", None),
        ("en", "Superseded", "Wild"),
    ):
        response = client.get(reverse("tournament:export_games", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE=language)
        body = b"".join(response.streaming_content).decode("utf-8-sig")
        rows = list(csv.reader(io.StringIO(body), delimiter=";" if body.count(";") > body.count(",") else ","))
        header = rows[0]
        cards = header.index({"it": "Carte", "de": "Karten", "en": "Cards"}[language])
        points = header.index({"it": "Punti", "de": "Punkte", "en": "Points"}[language])
        status = header.index({"it": "Stato", "de": "Status", "en": "Status"}[language])
        statuses = {row[status] for row in rows[1:]}
        assert superseded in statuses and "Corretta" not in statuses
        new = [row for row in rows[1:] if row[status] != superseded and row[cards]]
        assert new, "the corrected game's losers hold cards, said as cards"
        for row in new:
            assert row[cards] != row[points] and "×" in row[cards]  # the cards, not the points again
        ours = [row for row in new if row[cards].startswith("2×7, 1×")]
        assert len(ours) == len(seats) - 1 and all(row[points] == "64" for row in ours)  # 7 + 7 + 50
        if wild:
            assert all(row[cards] == f"2×7, 1×{wild}" for row in ours)
