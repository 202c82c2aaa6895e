"""The tombola's services (``tournament.desk.tombola``) on the database: prizes in the order given
out, drawn one at a time among the players checked in, each draw checkable from its stored seed
and pool, absent winners drawn again with the other results kept, one prize per player unless the
setting allows more, the podium left out when asked; refusals change nothing; every service is
audited with a readable sentence.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from tournament import draws, enums
from tournament.desk import tombola
from tournament.errors import NeedsConfirmation, ServiceError
from tournament.models import AuditEntry, Player, TombolaDraw, TombolaPrize, Tournament
from tournament.selectors import audit as audit_selectors
from tournament.selectors import tombola as tombola_selectors
from tournament.tests.desk.helpers import Call, assert_audited, audit_cases, version
from tournament.tests.factories import PlayerFactory

pytestmark = pytest.mark.core

Status = enums.PlayerStatus


def state(tournament: Tournament) -> dict[str, Any]:
    """Everything a tombola service may change."""
    return {
        "version": version(tournament),
        "prizes": list(TombolaPrize.objects.filter(tournament=tournament).values_list("pk", "position", "name")),
        "draws": list(
            TombolaDraw.objects.filter(prize__tournament=tournament).values_list("pk", "player_id", "absent_at")
        ),
        "settings": Tournament.objects.filter(pk=tournament.pk).values_list(
            "tombola_skip_podium", "tombola_repeat_winners", "tombola_on_screen"
        )[0],
        "audit": AuditEntry.objects.filter(tournament=tournament).count(),
    }


def present(tournament: Tournament, count: int) -> list[Player]:
    return PlayerFactory.create_batch(count, tournament=tournament, status=Status.CHECKED_IN)


def prizes(tournament: Tournament, actor: Any, *names: str) -> list[TombolaPrize]:
    return [tombola.add_prize(tournament=tournament, actor=actor, name=name) for name in names]


def winners(tournament: Tournament) -> dict[str, int]:
    return {row.prize.name: row.winner.player_id for row in tombola_selectors.read(tournament).rows if row.winner}


def sentences(tournament: Tournament) -> list[str]:
    offered = audit_selectors.choices(tournament)
    entries = AuditEntry.objects.filter(tournament=tournament, action__startswith="tombola").order_by("pk")
    return [audit_selectors.row(entry, offered).description for entry in entries]


# --- the draw ------------------------------------------------------------------------------


def test_only_checked_in_players_are_drawn_and_each_draw_is_checkable(tournament, desk):  # type: ignore[no-untyped-def]
    here = present(tournament, 4)
    for status in (Status.REGISTERED, Status.WITHDRAWN, Status.NO_SHOW, Status.WAITING):
        PlayerFactory(tournament=tournament, status=status)
    prizes(tournament, desk, "Wine", "Mask", "Fins", "Torch")

    made = [tombola.draw_next(tournament=tournament, actor=desk) for _ in range(4)]

    assert [draw.prize.name for draw in made] == ["Wine", "Mask", "Fins", "Torch"], "in the order given out"
    assert {draw.player_id for draw in made} == {player.pk for player in here}, "one prize each, only those here"
    for draw in TombolaDraw.objects.filter(prize__tournament=tournament):
        assert draw.algorithm == draws.TOMBOLA_ALGORITHM
        assert draws.draw_tombola_winner(draw.pool, draw.seed) == draw.player_id, "checkable from seed and pool"
    assert tombola_selectors.read(tournament).draws_checked
    assert Tournament.objects.get(pk=tournament.pk).tombola_on_screen, "the first draw shows the tombola"


def test_the_same_seed_and_pool_give_the_same_winner(tournament, desk):  # type: ignore[no-untyped-def]
    here = present(tournament, 7)
    prizes(tournament, desk, "Wine")
    first = tombola.draw_next(tournament=tournament, actor=desk, seed=4242)
    assert first.pool == sorted(player.pk for player in here)
    assert first.player_id == draws.draw_tombola_winner(reversed(first.pool), 4242)


def test_no_player_gets_two_prizes_unless_the_setting_allows_it(tournament, desk):  # type: ignore[no-untyped-def]
    present(tournament, 2)
    prizes(tournament, desk, "Wine", "Mask", "Fins")
    tombola.draw_next(tournament=tournament, actor=desk)
    tombola.draw_next(tournament=tournament, actor=desk)
    before = state(tournament)

    with pytest.raises(ServiceError) as caught:
        tombola.draw_next(tournament=tournament, actor=desk)

    assert "Nobody is left to win “Fins”" in caught.value.message
    assert "allow it in the tombola settings" in caught.value.message, "says what to do"
    assert state(tournament) == before

    tombola.save_settings(tournament=tournament, actor=desk, skip_podium=False, repeat_winners=True)
    third = tombola.draw_next(tournament=tournament, actor=desk)
    assert third.prize.name == "Fins"
    assert len(winners(tournament)) == 3


def test_every_prize_drawn_and_no_prizes_are_refused_with_what_to_do(tournament, desk):  # type: ignore[no-untyped-def]
    present(tournament, 2)
    with pytest.raises(ServiceError) as caught:
        tombola.draw_next(tournament=tournament, actor=desk)
    assert "add them" in caught.value.message
    prizes(tournament, desk, "Wine")
    tombola.draw_next(tournament=tournament, actor=desk)
    before = state(tournament)
    with pytest.raises(ServiceError) as caught:
        tombola.draw_next(tournament=tournament, actor=desk)
    assert "Every prize has its winner" in caught.value.message
    assert state(tournament) == before


def test_a_redraw_for_an_absent_winner_keeps_the_other_results(tournament, desk):  # type: ignore[no-untyped-def]
    present(tournament, 5)
    _wine, mask, _fins = prizes(tournament, desk, "Wine", "Mask", "Fins")
    for _ in range(3):
        tombola.draw_next(tournament=tournament, actor=desk)
    before = winners(tournament)

    absence = tombola.mark_absent(tournament=tournament, actor=desk, prize_id=mask.pk, confirmed=True)

    after = winners(tournament)
    assert absence.absent.pk == before["Mask"]
    assert absence.draw is not None and absence.draw.prize_id == mask.pk
    assert {name: who for name, who in after.items() if name != "Mask"} == {
        name: who for name, who in before.items() if name != "Mask"
    }
    assert after["Mask"] not in {before["Wine"], before["Mask"], before["Fins"]}
    assert TombolaDraw.objects.filter(prize=mask).count() == 2, "the absent draw is kept, marked"

    # The absent player is never drawn again: the last player left gets the next absence's prize.
    again = tombola.mark_absent(tournament=tournament, actor=desk, prize_id=mask.pk, confirmed=True)
    assert again.draw is not None
    assert again.draw.player_id not in {before["Mask"], after["Mask"]}

    # Nobody left: the absence is kept, the prize stays open, the reason is given.
    last = tombola.mark_absent(tournament=tournament, actor=desk, prize_id=mask.pk, confirmed=True)
    assert last.draw is None and "Nobody is left" in last.reason
    assert "Mask" not in winners(tournament)
    assert winners(tournament) == {"Wine": before["Wine"], "Fins": before["Fins"]}
    texts = sentences(tournament)
    assert any("is not here for prize 2 “Mask”" in text for text in texts)
    assert any("drawn again" in text and "Mask" in text for text in texts)


def test_marking_a_winner_absent_is_asked_first(tournament, desk):  # type: ignore[no-untyped-def]
    present(tournament, 3)
    (wine,) = prizes(tournament, desk, "Wine")
    draw = tombola.draw_next(tournament=tournament, actor=desk)
    before = state(tournament)
    with pytest.raises(NeedsConfirmation) as asked:
        tombola.mark_absent(tournament=tournament, actor=desk, prize_id=wine.pk)
    assert f"{draw.player.name} is marked absent for “Wine” and is never drawn again" in asked.value.message
    assert state(tournament) == before


def test_marking_an_open_prize_absent_is_refused(tournament, desk):  # type: ignore[no-untyped-def]
    present(tournament, 2)
    (wine,) = prizes(tournament, desk, "Wine")
    before = state(tournament)
    with pytest.raises(ServiceError) as caught:
        tombola.mark_absent(tournament=tournament, actor=desk, prize_id=wine.pk)
    assert "draw it first" in caught.value.message
    assert state(tournament) == before


def test_the_podium_is_left_out_when_asked(tournament, desk, monkeypatch):  # type: ignore[no-untyped-def]
    here = present(tournament, 4)
    prizes(tournament, desk, "Wine", "Mask")
    tombola.save_settings(tournament=tournament, actor=desk, skip_podium=True, repeat_winners=False)
    before = state(tournament)
    with pytest.raises(ServiceError) as caught:
        tombola.draw_next(tournament=tournament, actor=desk)
    assert "Finish the tournament first" in caught.value.message
    assert state(tournament) == before

    Tournament.objects.filter(pk=tournament.pk).update(status=enums.TournamentStatus.FINISHED)
    monkeypatch.setattr(tombola_selectors, "podium_ids", lambda t: [here[0].pk, here[1].pk, here[2].pk])
    draw = tombola.draw_next(tournament=tournament, actor=desk)
    assert draw.player_id == here[3].pk and draw.pool == [here[3].pk]
    with pytest.raises(ServiceError):
        tombola.draw_next(tournament=tournament, actor=desk)


# --- the prizes ----------------------------------------------------------------------------


def test_prizes_are_added_renamed_moved_and_removed_in_order(tournament, desk):  # type: ignore[no-untyped-def]
    wine, mask, fins = prizes(tournament, desk, "  Wine  ", "Mask", "Fins")
    assert wine.name == "Wine"
    tombola.move_prize(tournament=tournament, actor=desk, prize_id=fins.pk, step=-1)
    tombola.rename_prize(tournament=tournament, actor=desk, prize_id=mask.pk, name="Diving mask")
    order = lambda: list(TombolaPrize.objects.filter(tournament=tournament).values_list("position", "name"))  # noqa: E731
    assert order() == [(1, "Wine"), (2, "Fins"), (3, "Diving mask")]
    tombola.remove_prize(tournament=tournament, actor=desk, prize_id=wine.pk)
    assert order() == [(1, "Fins"), (2, "Diving mask")]
    texts = sentences(tournament)
    assert "Tombola: prize 1 “Wine” added." in texts
    assert "Tombola: “Fins” moved from place 3 to place 2." in texts
    assert "Tombola: prize 3 renamed to “Diving mask” (was “Mask”)." in texts


@pytest.mark.parametrize(
    ("name", "expected"), [("", "needs a name"), ("   ", "needs a name"), ("x" * 121, "at most 120 characters")]
)
def test_a_bad_prize_name_is_refused(tournament, desk, name, expected):  # type: ignore[no-untyped-def]
    (wine,) = prizes(tournament, desk, "Wine")
    before = state(tournament)
    for call in (
        partial(tombola.add_prize, tournament=tournament, actor=desk, name=name),
        partial(tombola.rename_prize, tournament=tournament, actor=desk, prize_id=wine.pk, name=name),
    ):
        with pytest.raises(ServiceError) as caught:
            call()
        assert expected in caught.value.message
    assert state(tournament) == before


def test_a_drawn_prize_keeps_its_name_and_place(tournament, desk):  # type: ignore[no-untyped-def]
    present(tournament, 3)
    wine, mask = prizes(tournament, desk, "Wine", "Mask")
    tombola.draw_next(tournament=tournament, actor=desk)
    before = state(tournament)
    for call in (
        partial(tombola.rename_prize, tournament=tournament, actor=desk, prize_id=wine.pk, name="Beer"),
        partial(tombola.move_prize, tournament=tournament, actor=desk, prize_id=wine.pk, step=1),
        partial(tombola.move_prize, tournament=tournament, actor=desk, prize_id=mask.pk, step=-1),
        partial(tombola.remove_prize, tournament=tournament, actor=desk, prize_id=wine.pk),
        partial(tombola.move_prize, tournament=tournament, actor=desk, prize_id=mask.pk, step=1),
        partial(tombola.rename_prize, tournament=tournament, actor=desk, prize_id=10**9, name="Beer"),
    ):
        with pytest.raises(ServiceError):
            call()
    assert state(tournament) == before


# --- audit trail and version (the matrix's cases for this module; see test_audit.py) --------


def case_add_prize(t: Tournament, a: Any) -> tuple[Call, str]:
    return partial(tombola.add_prize, tournament=t, actor=a, name="Wine"), "tombola_prize_added"


def case_rename_prize(t: Tournament, a: Any) -> tuple[Call, str]:
    prize = tombola.add_prize(tournament=t, actor=a, name="Wine")
    return partial(tombola.rename_prize, tournament=t, actor=a, prize_id=prize.pk, name="Beer"), "tombola_prize_renamed"


def case_move_prize(t: Tournament, a: Any) -> tuple[Call, str]:
    tombola.add_prize(tournament=t, actor=a, name="Wine")
    prize = tombola.add_prize(tournament=t, actor=a, name="Beer")
    return partial(tombola.move_prize, tournament=t, actor=a, prize_id=prize.pk, step=-1), "tombola_prize_moved"


def case_remove_prize(t: Tournament, a: Any) -> tuple[Call, str]:
    prize = tombola.add_prize(tournament=t, actor=a, name="Wine")
    return partial(tombola.remove_prize, tournament=t, actor=a, prize_id=prize.pk), "tombola_prize_removed"


def case_save_settings(t: Tournament, a: Any) -> tuple[Call, str]:
    return partial(tombola.save_settings, tournament=t, actor=a, skip_podium=True, repeat_winners=True), (
        "tournament_updated"
    )


def case_show_on_screen(t: Tournament, a: Any) -> tuple[Call, str]:
    return partial(tombola.show_on_screen, tournament=t, actor=a, shown=True), "tombola_shown"


def case_draw_next(t: Tournament, a: Any) -> tuple[Call, str]:
    present(t, 2)
    tombola.add_prize(tournament=t, actor=a, name="Wine")
    return partial(tombola.draw_next, tournament=t, actor=a), "tombola_drawn"


def case_mark_absent(t: Tournament, a: Any) -> tuple[Call, str]:
    present(t, 2)
    prize = tombola.add_prize(tournament=t, actor=a, name="Wine")
    tombola.draw_next(tournament=t, actor=a)
    return partial(tombola.mark_absent, tournament=t, actor=a, prize_id=prize.pk, confirmed=True), (
        "tombola_winner_absent"
    )


AUDIT_CASES = audit_cases(globals())


@pytest.mark.parametrize("service", sorted(AUDIT_CASES))
def test_every_service_writes_an_audit_entry_and_bumps_the_version(tournament, desk, service):  # type: ignore[no-untyped-def]
    assert_audited(AUDIT_CASES[service], tournament, desk)


@pytest.mark.parametrize("fmt", [enums.Format.KNOCKOUT, enums.Format.LIFE_BANDS])
def test_a_finished_tournament_leaves_its_real_podium_out(fmt, desk) -> None:  # type: ignore[no-untyped-def]
    from tournament import simulation
    from tournament.formats import registry

    tournament = simulation.create_field(fmt=fmt, players=7, seed=3)
    simulation.simulate(tournament, seed=3)
    tournament.refresh_from_db()
    assert tournament.status == enums.TournamentStatus.FINISHED
    podium = {row.player.pk for row in registry.of(tournament).ranking(tournament) if row.place <= 3}
    assert len(podium) >= 3
    tombola.save_settings(tournament=tournament, actor=desk, skip_podium=True, repeat_winners=False)
    tournament.refresh_from_db()
    here = set(Player.objects.filter(tournament=tournament, status=Status.CHECKED_IN).values_list("pk", flat=True))
    for number in range(len(here - podium)):
        tombola.add_prize(tournament=tournament, actor=desk, name=f"Prize {number + 1}")
        tombola.draw_next(tournament=tournament, actor=desk)
    assert set(winners(tournament).values()) == here - podium, "everyone but the podium wins, once"
    tombola.add_prize(tournament=tournament, actor=desk, name="One more")
    with pytest.raises(ServiceError):
        tombola.draw_next(tournament=tournament, actor=desk)
