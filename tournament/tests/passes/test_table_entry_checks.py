"""A tired volunteer's checks of the players' own table entry (issue 32, item 4), on the phone:
the back button after "Confirm" (the form is never posted again by a reload, the page shows the
table as it is, a stale form is answered, nothing counted twice), one player's pass open on two
phones, an organiser correcting a confirmed player's entry (the corrections page and the log say
who entered and who confirmed), and the pass page's poll bringing a table-mate's entry."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games.models import Game, GameStatus
from tournament import enums
from tournament.formats import registry
from tournament.models import AuditEntry
from tournament.play import corrections
from tournament.tests.helpers import refreshed
from tournament.tests.passes.test_table_entry_views import HTMX, Phones

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
POLL = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "pass-body", **EN}


@pytest.fixture(autouse=True)
def _fresh_cache():  # type: ignore[no-untyped-def]
    cache.clear()
    yield
    cache.clear()


def pass_url(at: Phones, pid: int) -> str:
    return reverse("tournament:pass", kwargs={"token": at.tokens[pid]})


def form_fields(page: str, action: str) -> dict[str, str]:
    """The hidden fields of the form posting to ``action`` on ``page`` (as the phone would post them)."""
    match = re.search(rf'<form method="post" action="{re.escape(action)}">(.*?)</form>', page, re.S)
    assert match, action
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', match.group(1)))


def confirmations(at: Phones) -> int:
    return AuditEntry.objects.filter(tournament=at.tournament, action="entry_confirmed").count()


def test_back_after_confirm_shows_the_table_as_it_is_and_a_stale_form_counts_nothing(client: Client) -> None:
    at = Phones(enums.Format.POINTS)
    anna, ben, carl = at.ids[0], at.ids[1], at.ids[2]
    client.post(at.url("pass_record", anna), at.entry(ben), **HTMX)
    ben_phone, carl_phone = Client(), Client()
    page = ben_phone.get(pass_url(at, ben), **EN)
    assert "no-store" in page["Cache-Control"]  # the back button asks again: never a page kept from before
    posted = form_fields(page.content.decode(), at.url("pass_confirm", ben))
    stale_for_carl = form_fields(
        carl_phone.get(pass_url(at, carl), **EN).content.decode(), at.url("pass_confirm", carl)
    )

    # Confirm on the pass page (a plain form): the table page, saying so once.
    answer = ben_phone.post(at.url("pass_confirm", ben), posted, **EN)
    assert answer.status_code == 302 and answer["Location"] == at.url("pass_table", ben)
    table_page = ben_phone.get(answer["Location"], **EN).content.decode()
    assert "Confirmed: game 1 counts." in table_page and 'id="pending-entry"' not in table_page
    assert "Confirmed: game 1 counts." not in ben_phone.get(answer["Location"], **EN).content.decode()  # once
    # Back to the pass page: the table as it is, no prompt.
    back = ben_phone.get(pass_url(at, ben), **EN).content.decode()
    assert 'id="pass-pending"' not in back and "Open my table" in back
    # The same form sent again (a phone that kept the old page): answered, nothing counted twice.
    again = ben_phone.post(at.url("pass_confirm", ben), posted, **EN)
    assert again.status_code == 302
    stale = carl_phone.post(at.url("pass_confirm", carl), stale_for_carl, **EN)
    assert stale.status_code == 409
    assert "This entry no longer waits for confirmation" in stale.content.decode()
    assert Game.objects.filter(table=at.table).count() == 1 and Game.objects.get().status == GameStatus.VALID
    assert confirmations(at) == 1


def test_not_right_on_the_pass_page_says_a_referee_is_called(client: Client) -> None:
    at = Phones(enums.Format.LIFE_BANDS)
    anna, ben = at.ids[0], at.ids[1]
    client.post(at.url("pass_record", anna), at.entry(ben), **HTMX)
    phone = Client()
    page = phone.get(pass_url(at, ben), **EN).content.decode()
    posted = form_fields(page, at.url("pass_reject", ben))
    answer = phone.post(at.url("pass_reject", ben), posted, follow=True, **EN)
    text = answer.content.decode()
    assert "Not counted: game 1. A referee is called to your table." in text and 'id="referee-called"' in text
    assert Game.objects.get().status == GameStatus.VOIDED


def test_one_players_pass_open_on_two_phones(client: Client) -> None:
    at = Phones(enums.Format.KNOCKOUT)
    anna, ben = at.ids[0], at.ids[1]
    anna_phone, anna_tablet = Client(), Client()
    ben_phone, ben_other = Client(), Client()
    anna_phone.post(at.url("pass_record", anna), at.entry(ben), **HTMX)
    game = Game.objects.get()
    # Her second phone shows her own entry: take it back, never confirm it.
    second = anna_tablet.get(at.url("pass_table", anna), **EN).content.decode()
    assert "Another player at your table confirms it" in second and 'id="confirm-entry"' not in second
    own = anna_tablet.post(
        at.url("pass_confirm", anna), {"game": game.pk, "version": refreshed(at.table).version}, **HTMX
    )
    assert own.status_code == 409 and "You entered this game yourself" in own.content.decode()
    other_entry = anna_tablet.post(at.url("pass_record", anna), at.entry(anna), **HTMX)
    assert other_entry.status_code == 409 and Game.objects.count() == 1
    # Ben confirms on both his phones at once: it counts once; the second is told it did.
    version = refreshed(at.table).version
    first = ben_phone.post(at.url("pass_confirm", ben), {"game": game.pk, "version": version}, **HTMX)
    later = ben_other.post(at.url("pass_confirm", ben), {"game": game.pk, "version": version}, **HTMX)
    assert first.status_code == later.status_code == 200
    assert "Confirmed: game 1 counts." in later.content.decode()
    assert Game.objects.get().status == GameStatus.VALID and confirmations(at) == 1
    # Both phones show the same table after their next poll.
    for phone in (anna_phone, anna_tablet, ben_phone, ben_other):
        shown = phone.get(at.url("pass_table", anna if phone in (anna_phone, anna_tablet) else ben), **EN)
        assert f"Game 1: {at.names[ben]}" in shown.content.decode()


def test_an_organiser_corrects_a_confirmed_players_entry_and_the_log_says_who_did_what(  # type: ignore[no-untyped-def]
    client: Client, staff_user
) -> None:
    at = Phones(enums.Format.POINTS)
    anna, ben, carl = at.ids[0], at.ids[1], at.ids[2]
    client.post(at.url("pass_record", anna), at.entry(ben), **HTMX)
    game = Game.objects.get()
    Client().post(at.url("pass_confirm", carl), {"game": game.pk, "version": refreshed(at.table).version}, **HTMX)
    organiser_user = staff_user(at.tournament, enums.Role.ORGANISER)
    organiser = Client()
    organiser.force_login(organiser_user)
    page_url = reverse("tournament:table_corrections", args=[at.tournament.pk, at.table.pk])
    page = organiser.get(page_url, **EN).content.decode()
    assert f"entered by {at.names[anna]} (player pass)" in page
    assert f"confirmed by {at.names[carl]} (player pass)" in page

    fmt = registry.of(at.tournament)
    points = {pid: 7 for pid in at.ids if pid != anna}
    kwargs = {
        "tournament": at.tournament,
        "fmt": fmt,
        "actor": organiser_user,
        "table_id": at.table.pk,
        "game_id": game.pk,
        "reason": "Anna won, not Ben",
        "winner_id": anna,
        "card_points": points,
    }
    try:
        corrections.correct_game(**kwargs, version=refreshed(at.table).version)
    except corrections.ConfirmConsequences as question:
        corrections.correct_game(**kwargs, version=refreshed(at.table).version, confirm=question.fingerprint)
    old, new = Game.objects.get(pk=game.pk), Game.objects.get(supersedes=game)
    assert old.status == GameStatus.SUPERSEDED and new.winner_id == anna and new.entered_by == organiser_user
    # The corrected game keeps who entered and who confirmed it; the new one is the organiser's.
    page = organiser.get(page_url, **EN).content.decode()
    assert f"entered by {at.names[anna]} (player pass)" in page and organiser_user.get_username() in page
    log = organiser.get(reverse("tournament:audit_log", args=[at.tournament.pk]), **EN).content.decode()
    for pid in (anna, carl):  # the log names a player with the start number: "Anna Bauer (6) (player pass)"
        assert re.search(rf"{re.escape(at.names[pid])} \(\d+\) \(player pass\)", log), at.names[pid]
    assert "game 1 confirmed" in log and "game 1 corrected" in log
    actions = list(
        AuditEntry.objects.filter(
            tournament=at.tournament, action__in=("entry_pending", "entry_confirmed", "game_corrected")
        )
        .order_by("pk")
        .values_list("action", "actor_player_id", "actor_id")
    )
    assert actions == [
        ("entry_pending", anna, None),
        ("entry_confirmed", carl, None),
        ("game_corrected", None, organiser_user.pk),
    ]


def test_the_pass_pages_poll_brings_a_table_mates_entry_with_the_prompt(client: Client) -> None:
    at = Phones(enums.Format.LIFE_BANDS)
    anna, ben = at.ids[0], at.ids[1]
    phone = Client()
    first = phone.get(pass_url(at, ben), **POLL)
    assert first.status_code == 200 and first["ETag"]
    assert phone.get(pass_url(at, ben), HTTP_IF_NONE_MATCH=first["ETag"], **POLL).status_code == 304
    client.post(at.url("pass_record", anna), at.entry(ben), **HTMX)
    polled = phone.get(pass_url(at, ben), HTTP_IF_NONE_MATCH=first["ETag"], **POLL)
    body = polled.content.decode()
    assert polled.status_code == 200 and 'id="pass-pending"' in body
    assert "✓ Confirm" in body and "Not right: call a referee" in body
    assert f"{at.names[anna]} entered: game 1, {at.names[ben]} hands in a chip." in body
