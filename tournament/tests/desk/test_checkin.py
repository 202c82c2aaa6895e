"""Check-in at the desk (``tournament.desk.checkin``): the checklist, checking in
(refusals, override with who and when, undo before play), the start number of a
late arrival after the draw; withdrawals, no-shows and reinstating with the
waiting list moving up in order; the check-in search (``tournament.selectors.desk``);
and the audit entry and version bump of each check-in service.

Every refused action is checked to change nothing (``snapshot``).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from django.utils import timezone

from tournament import enums
from tournament.desk import checkin, start_numbers
from tournament.errors import NeedsConfirmation, ServiceError
from tournament.models import AuditEntry, CheckIn, ChecklistItem, Player, Tournament
from tournament.selectors import desk as desk_selectors
from tournament.tests.desk.helpers import (
    Call,
    assert_audited,
    audit_cases,
    check_in,
    checked_in_players,
    numbers_of,
    register,
    snapshot,
    status_of,
    version,
)
from tournament.tests.factories import PlayerFactory, TournamentFactory, tick_all

pytestmark = pytest.mark.core

Status = enums.PlayerStatus


# --- withdrawals, no-shows, reinstating: the waiting list moves up ----------------------------


def test_withdrawal_moves_the_first_waiting_player_up(small, desk, full_with_waiting):  # type: ignore[no-untyped-def]
    p = full_with_waiting
    before = version(small)

    checkin.withdraw_player(tournament=small, actor=desk, player_id=p["Yvonne"].pk, confirmed=True)

    assert status_of(p["Yvonne"]) == Status.WITHDRAWN
    assert status_of(p["Walter"]) == Status.REGISTERED
    assert [w.name for w in desk_selectors.waiting_list(small)] == ["Ulla", "Theo"]
    assert version(small) > before
    moved = AuditEntry.objects.get(tournament=small, action="player_moved_up")
    assert moved.detail["player"] == p["Walter"].pk
    assert moved.actor == desk


def test_no_show_moves_the_waiting_list_up(small, desk, full_with_waiting):  # type: ignore[no-untyped-def]
    p = full_with_waiting
    checkin.mark_no_show(tournament=small, actor=desk, player_id=p["Zora"].pk)
    assert status_of(p["Zora"]) == Status.NO_SHOW
    assert status_of(p["Walter"]) == Status.REGISTERED
    assert status_of(p["Ulla"]) == Status.WAITING


def test_withdrawing_a_checked_in_player_moves_the_waiting_list_up(small, desk, full_with_waiting):  # type: ignore[no-untyped-def]
    p = full_with_waiting
    check_in(small, desk, p["Xaver"])
    checkin.withdraw_player(tournament=small, actor=desk, player_id=p["Xaver"].pk, confirmed=True)

    assert status_of(p["Xaver"]) == Status.WITHDRAWN
    assert not CheckIn.objects.filter(player=p["Xaver"], cancelled_at__isnull=True).exists()
    assert status_of(p["Walter"]) == Status.REGISTERED


def test_waiting_list_moves_up_in_order_of_registration(small, desk, full_with_waiting):  # type: ignore[no-untyped-def]
    p = full_with_waiting
    checkin.withdraw_player(tournament=small, actor=desk, player_id=p["Xaver"].pk, confirmed=True)
    checkin.mark_no_show(tournament=small, actor=desk, player_id=p["Yvonne"].pk)
    assert [status_of(p[n]) for n in ("Walter", "Ulla", "Theo")] == [
        Status.REGISTERED,
        Status.REGISTERED,
        Status.WAITING,
    ]
    checkin.withdraw_player(tournament=small, actor=desk, player_id=p["Zora"].pk, confirmed=True)
    assert status_of(p["Theo"]) == Status.REGISTERED
    promoted = AuditEntry.objects.filter(tournament=small, action="player_moved_up").order_by("pk")
    assert [entry.detail["player"] for entry in promoted] == [p["Walter"].pk, p["Ulla"].pk, p["Theo"].pk]


def test_leaving_the_waiting_list_promotes_nobody(small, desk, full_with_waiting):  # type: ignore[no-untyped-def]
    p = full_with_waiting
    checkin.withdraw_player(tournament=small, actor=desk, player_id=p["Walter"].pk, confirmed=True)
    checkin.mark_no_show(tournament=small, actor=desk, player_id=p["Ulla"].pk)
    assert status_of(p["Theo"]) == Status.WAITING
    assert desk_selectors.desk_counters(small).registered == 3
    assert not AuditEntry.objects.filter(tournament=small, action="player_moved_up").exists()


def test_no_show_of_a_checked_in_player_is_refused(small, desk, full_with_waiting):  # type: ignore[no-untyped-def]
    p = full_with_waiting
    check_in(small, desk, p["Xaver"])
    state = snapshot(small)
    with pytest.raises(ServiceError):
        checkin.mark_no_show(tournament=small, actor=desk, player_id=p["Xaver"].pk)
    assert snapshot(small) == state


def test_reinstating_when_full_puts_the_player_on_the_waiting_list(small, desk, full_with_waiting):  # type: ignore[no-untyped-def]
    p = full_with_waiting
    # Walter moves up: full again
    checkin.withdraw_player(tournament=small, actor=desk, player_id=p["Xaver"].pk, confirmed=True)

    player = checkin.reinstate_player(tournament=small, actor=desk, player_id=p["Xaver"].pk)

    assert player.status == Status.WAITING
    assert status_of(p["Xaver"]) == Status.WAITING
    assert desk_selectors.desk_counters(small).registered == 3


def test_a_reinstated_player_joins_the_end_of_the_waiting_list(small, desk, full_with_waiting):  # type: ignore[no-untyped-def]
    """Withdrawing gives the place up: back on the list, the player queues behind
    those already waiting, however early the first registration was."""
    p = full_with_waiting
    checkin.withdraw_player(tournament=small, actor=desk, player_id=p["Xaver"].pk, confirmed=True)  # Walter moves up
    checkin.reinstate_player(tournament=small, actor=desk, player_id=p["Xaver"].pk)

    assert [w.name for w in desk_selectors.waiting_list(small)] == ["Ulla", "Theo", "Xaver"]
    checkin.withdraw_player(tournament=small, actor=desk, player_id=p["Yvonne"].pk, confirmed=True)
    assert status_of(p["Ulla"]) == Status.REGISTERED
    assert status_of(p["Xaver"]) == Status.WAITING


def test_reinstating_with_a_free_place_registers_the_player(small, desk):  # type: ignore[no-untyped-def]
    anna = register(small, desk, "Anna").player
    checkin.withdraw_player(tournament=small, actor=desk, player_id=anna.pk, confirmed=True)
    assert checkin.reinstate_player(tournament=small, actor=desk, player_id=anna.pk).status == Status.REGISTERED
    with pytest.raises(ServiceError):
        checkin.reinstate_player(tournament=small, actor=desk, player_id=anna.pk)


# --- check-in -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "fragment"),
    [(Status.WITHDRAWN, "withdrawn"), (Status.NO_SHOW, "no-show"), (Status.WAITING, "waiting list")],
)
def test_check_in_is_refused_for_players_without_a_place(tournament, desk, status, fragment):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=tournament, status=status, name="Otto Absent")
    tick_all(player)
    state = snapshot(tournament)

    with pytest.raises(ServiceError) as caught:
        check_in(tournament, desk, player, override=True)

    assert not isinstance(caught.value, NeedsConfirmation)
    assert "Otto Absent" in caught.value.message
    assert fragment in caught.value.message
    assert snapshot(tournament) == state


def test_check_in_with_everything_ticked(tournament, desk):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=tournament)
    for item in tournament.checklist_items.all():
        checkin.set_check(tournament=tournament, actor=desk, player_id=player.pk, item_id=item.pk, done=True)

    result = check_in(tournament, desk, player)

    assert result.open_items == []
    assert result.start_number_assigned is False
    assert status_of(player) == Status.CHECKED_IN
    live = CheckIn.objects.get(player=player, cancelled_at__isnull=True)
    assert (live.override, live.open_items, live.checked_in_by) == (False, [], desk)
    assert desk_selectors.overrides(tournament) == []


def test_open_checklist_items_need_an_override(tournament, desk):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=tournament)
    licence = tournament.checklist_items.get(label="Diving licence (OWD)")
    checkin.set_check(tournament=tournament, actor=desk, player_id=player.pk, item_id=licence.pk, done=True)
    state = snapshot(tournament)

    with pytest.raises(NeedsConfirmation) as caught:
        check_in(tournament, desk, player)

    assert caught.value.kind == "override"
    assert "Medical certificate" in caught.value.message
    assert "Diving licence" not in caught.value.message
    assert snapshot(tournament) == state


def test_override_records_open_items_who_and_when(tournament, desk):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=tournament)
    licence = tournament.checklist_items.get(label="Diving licence (OWD)")
    checkin.set_check(tournament=tournament, actor=desk, player_id=player.pk, item_id=licence.pk, done=True)
    started = timezone.now()

    result = check_in(tournament, desk, player, override=True)

    assert result.open_items == ["Medical certificate"]
    assert status_of(player) == Status.CHECKED_IN
    record = CheckIn.objects.get(player=player)
    assert record.override is True
    assert record.open_items == ["Medical certificate"]
    assert record.checked_in_by == desk
    assert record.cancelled_at is None
    assert started <= record.checked_in_at <= timezone.now()
    assert desk_selectors.overrides(tournament) == [record]
    entry = AuditEntry.objects.get(tournament=tournament, action="player_checked_in")
    assert entry.detail["override"] is True
    assert entry.detail["open_items"] == ["Medical certificate"]


def test_a_second_check_in_is_refused(tournament, desk):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=tournament, name="Doppelt")
    check_in(tournament, desk, player, override=True)
    state = snapshot(tournament)

    with pytest.raises(ServiceError) as caught:
        check_in(tournament, desk, player, override=True)

    assert "already checked in" in caught.value.message
    assert CheckIn.objects.filter(player=player).count() == 1
    assert snapshot(tournament) == state


def test_check_in_of_a_player_of_another_tournament_is_refused(tournament, desk):  # type: ignore[no-untyped-def]
    stranger = PlayerFactory(tournament=TournamentFactory(checklist=[]))
    with pytest.raises(ServiceError):
        check_in(tournament, desk, stranger)
    assert status_of(stranger) == Status.REGISTERED
    assert not CheckIn.objects.exists()


def test_undo_check_in_before_play(tournament, desk):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=tournament)
    check_in(tournament, desk, player, override=True)
    before = version(tournament)

    checkin.undo_check_in(tournament=tournament, actor=desk, player_id=player.pk)

    assert status_of(player) == Status.REGISTERED
    first = CheckIn.objects.get(player=player)
    assert first.cancelled_at is not None
    assert version(tournament) > before
    # The player can be checked in again: the cancelled check-in stays as history.
    check_in(tournament, desk, player, override=True)
    assert CheckIn.objects.filter(player=player).count() == 2
    assert CheckIn.objects.filter(player=player, cancelled_at__isnull=True).count() == 1


def test_undo_check_in_after_play_started_is_refused(tournament, desk):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=tournament)
    check_in(tournament, desk, player, override=True)
    tournament.status = enums.TournamentStatus.RUNNING
    tournament.save()
    state = snapshot(tournament)

    with pytest.raises(ServiceError):
        checkin.undo_check_in(tournament=tournament, actor=desk, player_id=player.pk)

    assert status_of(player) == Status.CHECKED_IN
    assert snapshot(tournament) == state


def test_undo_of_a_player_not_checked_in_is_refused(tournament, desk):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=tournament)
    state = snapshot(tournament)
    with pytest.raises(ServiceError):
        checkin.undo_check_in(tournament=tournament, actor=desk, player_id=player.pk)
    assert snapshot(tournament) == state


# --- the start number of a late arrival (given at check-in) ---------------------------------


def test_no_start_number_at_check_in_before_the_draw(tournament, desk):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=tournament)
    result = check_in(tournament, desk, player, override=True)
    assert result.start_number_assigned is False
    assert Player.objects.get(pk=player.pk).start_number is None


def test_late_check_in_after_the_draw_gets_the_next_number(tournament, desk):  # type: ignore[no-untyped-def]
    checked_in_players(tournament, desk, 4)
    start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=7)
    late, later = PlayerFactory.create_batch(2, tournament=tournament)

    first = check_in(tournament, desk, late, override=True)
    second = check_in(tournament, desk, later, override=True)

    assert first.start_number_assigned is True
    assert Player.objects.get(pk=late.pk).start_number == 5
    assert Player.objects.get(pk=later.pk).start_number == 6
    assert second.player.start_number == 6


def test_late_check_in_never_reuses_a_withdrawn_players_number(tournament, desk):  # type: ignore[no-untyped-def]
    players = checked_in_players(tournament, desk, 3)
    start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=11)
    highest = max(players, key=lambda p: Player.objects.get(pk=p.pk).start_number or 0)
    checkin.withdraw_player(tournament=tournament, actor=desk, player_id=highest.pk, confirmed=True)
    late = PlayerFactory(tournament=tournament)

    check_in(tournament, desk, late, override=True)

    numbers = [n for n in numbers_of(tournament).values() if n is not None]
    assert Player.objects.get(pk=late.pk).start_number == 4
    assert len(numbers) == len(set(numbers))


# --- the check-in search (desk selector) -----------------------------------------------------


def test_search_by_start_number_finds_the_player_even_in_a_large_field(tournament, desk):  # type: ignore[no-untyped-def]
    """Typing a start number finds that player first, even when more than a
    page of names also contain the digits."""
    players = [
        PlayerFactory(tournament=tournament, name=f"Spieler 7{i:02d}")
        for i in range(desk_selectors.CHECKIN_LIST_LIMIT + 5)
    ]
    target = PlayerFactory(tournament=tournament, name="Zacharias Zett")
    Player.objects.filter(pk=target.pk).update(start_number=7)

    found, total = desk_selectors.search_players(tournament, "7")

    assert total == len(players) + 1
    assert len(found) == desk_selectors.CHECKIN_LIST_LIMIT
    assert found[0].pk == target.pk


@pytest.mark.parametrize("query", ["²", "99999999999999999999999", "007"])
def test_search_with_odd_digits_does_not_crash(tournament, query):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=tournament, name=f"Agent {query}")
    found, total = desk_selectors.search_players(tournament, query)
    assert [p.pk for p in found] == [player.pk]
    assert total == 1


# --- audit trail and version (the matrix's cases for this module; see test_audit.py) --------


def _player(t: Tournament, **kwargs: Any) -> Player:
    return PlayerFactory(tournament=t, **kwargs)


def _checked_in(t: Tournament, actor: Any) -> Player:
    player = _player(t)
    check_in(t, actor, player, override=True)
    return player


def _deck_handed_in(t: Tournament, actor: Any) -> tuple[Player, ChecklistItem]:
    player = _player(t)
    deck = ChecklistItem.objects.create(tournament=t, label="Own deck", position=9, returnable=True)
    checkin.set_check(tournament=t, actor=actor, player_id=player.pk, item_id=deck.pk, done=True)
    return player, deck


def case_set_check(t: Tournament, a: Any) -> tuple[Call, str]:
    item = t.checklist_items.all()[0]
    call = partial(checkin.set_check, tournament=t, actor=a, player_id=_player(t).pk, item_id=item.pk, done=True)
    return call, "check_ticked"


def case_set_check_undone(t: Tournament, a: Any) -> tuple[Call, str]:
    player, deck = _deck_handed_in(t, a)
    call = partial(checkin.set_check, tournament=t, actor=a, player_id=player.pk, item_id=deck.pk, done=False)
    return call, "check_unticked"


def case_set_returned(t: Tournament, a: Any) -> tuple[Call, str]:
    player, deck = _deck_handed_in(t, a)
    call = partial(checkin.set_returned, tournament=t, actor=a, player_id=player.pk, item_id=deck.pk, returned=True)
    return call, "equipment_returned"


def case_check_in_player(t: Tournament, a: Any) -> tuple[Call, str]:
    return partial(check_in, t, a, _player(t), override=True), "player_checked_in"


def case_undo_check_in(t: Tournament, a: Any) -> tuple[Call, str]:
    return partial(checkin.undo_check_in, tournament=t, actor=a, player_id=_checked_in(t, a).pk), "check_in_undone"


def case_withdraw_player(t: Tournament, a: Any) -> tuple[Call, str]:
    call = partial(checkin.withdraw_player, tournament=t, actor=a, player_id=_player(t).pk, confirmed=True)
    return call, "player_withdrawn"


def case_mark_no_show(t: Tournament, a: Any) -> tuple[Call, str]:
    return partial(checkin.mark_no_show, tournament=t, actor=a, player_id=_player(t).pk), "player_no_show"


def case_reinstate_player(t: Tournament, a: Any) -> tuple[Call, str]:
    player = _player(t, status=Status.WITHDRAWN)
    return partial(checkin.reinstate_player, tournament=t, actor=a, player_id=player.pk), "player_reinstated"


AUDIT_CASES = audit_cases(globals())


@pytest.mark.parametrize("service", sorted(AUDIT_CASES))
def test_every_service_writes_an_audit_entry_and_bumps_the_version(tournament, desk, service):  # type: ignore[no-untyped-def]
    assert_audited(AUDIT_CASES[service], tournament, desk)
