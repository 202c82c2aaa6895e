"""The start-number draw (``tournament.desk.start_numbers``): only checked-in
players, numbered 1 to n; seed and algorithm stored so the draw can be
recomputed; the same seed gives the same numbers; drawing again replaces the
numbers before play and is refused after; and its audit entry and version bump.

Every refused action is checked to change nothing (``snapshot``).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from tournament import draws, enums
from tournament.desk import checkin, start_numbers
from tournament.errors import ServiceError
from tournament.models import AuditEntry, StartNumberDraw, Tournament
from tournament.selectors import desk as desk_selectors
from tournament.tests.desk.helpers import (
    Call,
    assert_audited,
    audit_cases,
    check_in,
    checked_in_players,
    numbers_of,
    snapshot,
    version,
)
from tournament.tests.factories import PlayerFactory

pytestmark = pytest.mark.core

Status = enums.PlayerStatus


def test_draw_without_checked_in_players_is_refused(tournament, desk):  # type: ignore[no-untyped-def]
    PlayerFactory.create_batch(3, tournament=tournament)
    state = snapshot(tournament)

    with pytest.raises(ServiceError):
        start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=1)

    assert not StartNumberDraw.objects.exists()
    assert set(numbers_of(tournament).values()) == {None}
    assert snapshot(tournament) == state


def test_draw_numbers_only_checked_in_players_one_to_n(tournament, desk):  # type: ignore[no-untyped-def]
    present = checked_in_players(tournament, desk, 7)
    registered = PlayerFactory(tournament=tournament)
    waiting = PlayerFactory(tournament=tournament, status=Status.WAITING)
    gone = PlayerFactory(tournament=tournament, status=Status.WITHDRAWN)
    before = version(tournament)

    draw = start_numbers.draw_start_numbers(tournament=tournament, actor=desk)

    numbers = numbers_of(tournament)
    assert sorted(numbers[p.pk] for p in present) == list(range(1, 8))  # type: ignore[type-var]
    assert numbers[registered.pk] is None and numbers[waiting.pk] is None and numbers[gone.pk] is None
    assert draw.result == [[pk, numbers[pk]] for pk in sorted(numbers, key=lambda pk: numbers[pk] or 0) if numbers[pk]]
    assert version(tournament) > before
    assert [p.pk for p in desk_selectors.draw_result(tournament)] == [pk for pk, _number in draw.result]


def test_draw_stores_seed_and_algorithm_and_can_be_recomputed(tournament, desk):  # type: ignore[no-untyped-def]
    present = checked_in_players(tournament, desk, 9)

    draw = start_numbers.draw_start_numbers(tournament=tournament, actor=desk)

    stored = StartNumberDraw.objects.get(pk=draw.pk)
    assert stored.tournament == tournament
    assert stored.algorithm == draws.START_NUMBER_ALGORITHM
    assert stored.drawn_by == desk
    recomputed = dict(draws.draw_start_numbers([p.pk for p in present], stored.seed))
    assert recomputed == {pk: n for pk, n in numbers_of(tournament).items() if n is not None}
    assert [tuple(pair) for pair in stored.result] == sorted(recomputed.items(), key=lambda pair: pair[1])
    entry = AuditEntry.objects.get(tournament=tournament, action="start_numbers_drawn")
    assert entry.detail == {"seed": stored.seed, "players": 9}


def test_same_seed_same_players_same_numbers(tournament, desk):  # type: ignore[no-untyped-def]
    checked_in_players(tournament, desk, 12)

    first = start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=424242)
    numbers_first = numbers_of(tournament)
    start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=99, confirmed=True)
    numbers_other = numbers_of(tournament)
    again = start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=424242, confirmed=True)

    assert numbers_of(tournament) == numbers_first
    assert again.result == first.result
    assert numbers_other != numbers_first  # 12! orders: another seed gives another draw
    assert (first.seed, again.seed) == (424242, 424242)


def test_drawing_again_before_play_replaces_the_numbers(tournament, desk):  # type: ignore[no-untyped-def]
    players = checked_in_players(tournament, desk, 5)
    start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=1)
    late = PlayerFactory(tournament=tournament)
    check_in(tournament, desk, late, override=True)  # gets number 6
    checkin.undo_check_in(tournament=tournament, actor=desk, player_id=players[0].pk)

    second = start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=2, confirmed=True)

    numbers = numbers_of(tournament)
    drawn = [*players[1:], late]
    assert sorted(numbers[p.pk] for p in drawn) == list(range(1, 6))  # type: ignore[type-var]
    assert numbers[players[0].pk] is None  # no longer checked in: the old number is gone
    assert numbers == {**{p.pk: None for p in players}, **dict(draws.draw_start_numbers([p.pk for p in drawn], 2))}
    assert StartNumberDraw.objects.filter(tournament=tournament).count() == 2
    assert desk_selectors.latest_draw(tournament) == second


def test_drawing_again_after_play_started_is_refused(tournament, desk):  # type: ignore[no-untyped-def]
    checked_in_players(tournament, desk, 4)
    start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=5)
    tournament.status = enums.TournamentStatus.RUNNING
    tournament.save()
    state = snapshot(tournament)

    with pytest.raises(ServiceError) as caught:
        start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=6)

    assert "Play has started" in caught.value.message
    assert snapshot(tournament) == state


# --- audit trail and version (the matrix's cases for this module; see test_audit.py) --------


def case_draw_start_numbers(t: Tournament, a: Any) -> tuple[Call, str]:
    player = PlayerFactory(tournament=t)
    check_in(t, a, player, override=True)
    return partial(start_numbers.draw_start_numbers, tournament=t, actor=a), "start_numbers_drawn"


AUDIT_CASES = audit_cases(globals())


@pytest.mark.parametrize("service", sorted(AUDIT_CASES))
def test_every_service_writes_an_audit_entry_and_bumps_the_version(tournament, desk, service):  # type: ignore[no-untyped-def]
    assert_audited(AUDIT_CASES[service], tournament, desk)
