"""The organiser's tombola pages (``views.tombola``), the printout, the projector while the tombola
is shown, a winner's phone page, and the desk's hand-outs.

Bad inputs (an empty or over-long prize name, a forged direction, a prize of another tournament, a
draw with nobody left) answer 422 with the reason on the page and save nothing; never a 500. Only
the organiser reaches the tombola's pages; the desk prints the results.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournament import enums
from tournament.desk import tombola
from tournament.models import AuditEntry, PlayerCheck, TombolaDraw, TombolaPrize, Tournament
from tournament.tests.factories import PlayerFactory, TournamentFactory
from tournament.tests.helpers import url

pytestmark = [pytest.mark.django_db]

Status = enums.PlayerStatus


def saved(tournament: Tournament) -> tuple[object, ...]:
    return (
        list(TombolaPrize.objects.filter(tournament=tournament).values_list("pk", "position", "name")),
        list(TombolaDraw.objects.filter(prize__tournament=tournament).values_list("pk", "absent_at")),
        AuditEntry.objects.filter(tournament=tournament).count(),
        Tournament.objects.values_list("version", flat=True).get(pk=tournament.pk),
    )


def test_the_organiser_adds_prizes_draws_and_marks_an_absent_winner(organiser_client, tournament) -> None:
    players = PlayerFactory.create_batch(3, tournament=tournament, status=Status.CHECKED_IN)
    for name in ("Bottle of wine", "Diving mask"):
        response = organiser_client.post(url("tombola_add", tournament), {"add-name": name})
        assert response.status_code == 302
    page = organiser_client.get(url("tombola", tournament)).content.decode()
    assert "Next: prize 1, “Bottle of wine”" in page
    assert "3 of 3 players present can still win" in page

    response = organiser_client.post(url("tombola_draw", tournament), follow=True)
    page = response.content.decode()
    winner = TombolaDraw.objects.get(prize__tournament=tournament)
    assert f"{winner.player.name} wins prize 1 “Bottle of wine”" in page
    assert "Next: prize 2, “Diving mask”" in page

    prize = TombolaPrize.objects.get(tournament=tournament, position=1)
    before = saved(tournament)
    response = organiser_client.post(url("tombola_absent", tournament, prize.pk))
    page = response.content.decode()
    assert response.status_code == 200 and "Please confirm" in page, "asked first, in the prize's row"
    assert f"{winner.player.name} is marked absent for “Bottle of wine”" in page
    assert saved(tournament) == before
    response = organiser_client.post(url("tombola_absent", tournament, prize.pk), {"confirm": "1"}, follow=True)
    page = response.content.decode()
    assert f"{winner.player.name} is marked absent" in page and "Drawn again" in page
    current = TombolaDraw.objects.get(prize=prize, absent_at__isnull=True)
    assert current.player_id in {player.pk for player in players} - {winner.player_id}


@pytest.mark.parametrize(
    ("typed", "expected"),
    [("", "This field is required."), ("   ", "This field is required."), ("x" * 121, "at most 120 characters")],
)
def test_a_bad_prize_name_is_refused_and_nothing_is_saved(organiser_client, tournament, typed, expected) -> None:
    tombola.add_prize(tournament=tournament, actor=None, name="Wine")
    prize = TombolaPrize.objects.get(tournament=tournament)
    before = saved(tournament)
    for path, field in (
        (url("tombola_add", tournament), "add-name"),
        (url("tombola_rename", tournament, prize.pk), f"p{prize.pk}-name"),
    ):
        response = organiser_client.post(path, {field: typed})
        assert response.status_code == 422
        assert expected in response.content.decode()
    assert saved(tournament) == before


@pytest.mark.parametrize(
    ("name", "args", "data", "expected"),
    [
        ("tombola_move", "other", {"direction": "up"}, "does not exist"),
        ("tombola_move", "first", {"direction": "sideways"}, "one place up or down"),
        ("tombola_move", "first", {}, "one place up or down"),
        ("tombola_move", "first", {"direction": "up"}, "already the first prize"),
        ("tombola_remove", "other", {}, "does not exist"),
        ("tombola_absent", "first", {}, "draw it first"),
        ("tombola_rename", "other", {"name": "Beer"}, "does not exist"),
    ],
)
def test_forged_or_stale_posts_are_refused_with_the_reason(
    organiser_client, tournament, name, args, data, expected
) -> None:
    first = tombola.add_prize(tournament=tournament, actor=None, name="Wine")
    other_tournament = TournamentFactory()
    other = tombola.add_prize(tournament=other_tournament, actor=None, name="Mask")
    prize = first if args == "first" else other
    before, before_other = saved(tournament), saved(other_tournament)
    response = organiser_client.post(url(name, tournament, prize.pk), data)
    assert response.status_code == 422
    assert expected in response.content.decode()
    assert saved(tournament) == before and saved(other_tournament) == before_other


def test_a_draw_with_nobody_left_says_what_to_do(organiser_client, tournament) -> None:
    PlayerFactory(tournament=tournament, status=Status.CHECKED_IN)
    tombola.add_prize(tournament=tournament, actor=None, name="Wine")
    tombola.add_prize(tournament=tournament, actor=None, name="Mask")
    organiser_client.post(url("tombola_draw", tournament))
    before = saved(tournament)
    response = organiser_client.post(url("tombola_draw", tournament))
    assert response.status_code == 422
    page = response.content.decode()
    assert "Nobody is left to win “Mask”" in page and "tombola settings" in page
    assert saved(tournament) == before


def test_only_the_organiser_reaches_the_tombola(client, tournament, staff_user) -> None:
    client.force_login(staff_user(tournament, enums.Role.DESK))
    assert client.get(url("tombola", tournament)).status_code == 403
    assert client.post(url("tombola_add", tournament), {"add-name": "Wine"}).status_code == 403
    assert not TombolaPrize.objects.exists()
    assert client.get(url("print_tombola", tournament)).status_code == 200, "the desk prints the results"


def test_the_projector_shows_the_tombola_and_the_winner_sees_the_prize(
    organiser_client, client, tournament, settings
) -> None:
    settings.PUBLIC_RENDER_SECONDS = 0  # no one-second window (tournament.renderings): each draw at once
    player = PlayerFactory(tournament=tournament, status=Status.CHECKED_IN, start_number=7)
    tombola.add_prize(tournament=tournament, actor=None, name="Bottle of wine")
    projector = reverse("tournament:projector", args=[tournament.public_key])
    assert "Bottle of wine" not in client.get(projector).content.decode()

    organiser_client.post(url("tombola_draw", tournament))
    page = client.get(projector).content.decode()
    assert "Bottle of wine" in page and player.name in page and 'data-view="tombola"' in page
    phone = client.get(reverse("tournament:find", args=[tournament.public_key]) + "?q=7").content.decode()
    assert "You won prize 1 in the tombola: Bottle of wine" in phone

    organiser_client.post(url("tombola_screen", tournament), {"shown": "0"})
    assert 'data-view="tombola"' not in client.get(projector).content.decode()
    printed = organiser_client.get(url("print_tombola", tournament)).content.decode()
    assert "Bottle of wine" in printed and player.name in printed and "seed" in printed


def test_the_desk_counts_the_meal_vouchers_given_and_left(client, staff_user) -> None:
    tournament = TournamentFactory(checklist=["Entry fee paid", "Meal voucher handed out"])
    voucher = tournament.checklist_items.get(label="Meal voucher handed out")
    here = PlayerFactory.create_batch(3, tournament=tournament, status=Status.CHECKED_IN)
    PlayerCheck.objects.create(player=here[0], item=voucher)
    registered = PlayerFactory(tournament=tournament, status=Status.REGISTERED)
    PlayerCheck.objects.create(player=registered, item=voucher)  # ticked before check-in: not counted yet
    client.force_login(staff_user(tournament, enums.Role.DESK))
    for name in ("desk", "check_in"):
        page = client.get(url(name, tournament)).content.decode()
        assert "<strong>Meal voucher handed out</strong>:" in page
        assert "1 given" in page and "2 left to give" in page
        assert "0 given" in page and "3 left to give" in page  # the entry fee
    client.cookies["django_language"] = "de"
    page = client.get(url("desk", tournament), headers={"Accept-Language": "de"}).content.decode()
    assert "Essensgutschein ausgegeben" in page
