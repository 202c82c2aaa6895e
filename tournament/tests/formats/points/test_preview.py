"""The organiser sees the next round's seating before it is seated (issue 15).

- ``services.plan_next_round`` saves nothing and plans exactly what ``start_round`` seats with
  the same seed (tables, algorithm, note), over fields of 3-60 players and up to four rounds.
- The preview page names the repeated pairs against the unavoidable ones, the pairs at each
  table who met before, and "Seat round N as shown" seats that plan (stored seed, audited).
- A tired organiser: a double tap seats once, a preview made stale by a pause is refused with
  the new preview shown, a count that does not split asks first, bad input is never a 500 and
  saves nothing, the desk cannot seat, the page costs the same queries at two sizes.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from tournament import enums
from tournament.errors import NeedsChoice, ServiceError
from tournament.formats.points import services as points_services
from tournament.models import AuditEntry, Player, Round, Seat, Tournament
from tournament.tests.formats.points.helpers import play_round, points_field, start
from tournament.writes import REFUSED


def preview_url(tournament: Tournament, number: int, **query: object) -> str:
    url = reverse("tournament:points_preview", args=[tournament.pk, number])
    return url + ("?" + "&".join(f"{key}={value}" for key, value in query.items()) if query else "")


def seat_url(tournament: Tournament, number: int) -> str:
    return reverse("tournament:points_seat", args=[tournament.pk, number])


def saved(tournament: Tournament) -> tuple[object, ...]:
    """Everything seating a round writes."""
    return (
        Tournament.objects.values_list("version", "status").get(pk=tournament.pk),
        sorted(Round.objects.filter(tournament=tournament).values_list("number", "seed", "status")),
        Seat.objects.filter(table__round__tournament=tournament).count(),
        AuditEntry.objects.filter(tournament=tournament).exclude(action=REFUSED).count(),
    )


def seating_of(rnd: Round) -> list[tuple[int, ...]]:
    return [
        tuple(table.seats.order_by("position").values_list("player_id", flat=True))
        for table in rnd.tables.order_by("number")
    ]


def refreshed(tournament: Tournament) -> Tournament:
    return Tournament.objects.get(pk=tournament.pk)


# --------------------------------------------------------------------------
# The service
# --------------------------------------------------------------------------


@pytest.mark.django_db
# Each example plays whole rounds in the database: few examples, and no shrinking (a failure prints its field).
@settings(
    max_examples=12,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@example(players=5, rounds_before=1, seed=7117694)
@given(players=st.integers(3, 60), rounds_before=st.integers(0, 3), seed=st.integers(0, 10**9 - 1))
def test_the_preview_plans_exactly_what_seating_stores(players: int, rounds_before: int, seed: int) -> None:
    tournament = points_field(players=players, seed=players, rounds_planned=rounds_before + 1, games_per_round=1)
    for number in range(rounds_before):
        try:
            earlier = start(tournament, seed=number + 1)
        except NeedsChoice as question:  # 5 players: the organiser's choice, every round
            earlier = points_services.start_round(
                tournament=tournament, actor=None, seed=number + 1, choice=question.options[0].code
            )
        play_round(tournament, earlier, seed=number)
    tournament = refreshed(tournament)
    before = saved(tournament)
    try:
        planned = points_services.plan_next_round(tournament, seed=seed)
    except NeedsChoice as question:
        choice = question.options[0].code
        planned = points_services.plan_next_round(tournament, seed=seed, choice=choice)
    else:
        choice = ""
    assert saved(tournament) == before  # a preview writes nothing

    seated = points_services.start_round(
        tournament=tournament, actor=None, seed=seed, choice=choice, previewed_version=tournament.version
    )
    assert planned.number == seated.number == rounds_before + 1
    assert seating_of(seated) == [tuple(table) for table in planned.plan.tables]
    assert (seated.seed, seated.seating_algorithm, seated.seating_note) == (seed, planned.plan.algorithm, planned.note)
    # The named repeats are the plan's pairs that met before, as many as the figure says.
    assert len(planned.repeated) == planned.plan.repeated_pairs
    assert planned.plan.repeated_pairs >= planned.plan.unavoidable_repeats


@pytest.mark.django_db
def test_a_write_since_the_preview_refuses_to_seat_and_saves_nothing() -> None:
    tournament = points_field(players=9, rounds_planned=3, games_per_round=1)
    play_round(tournament, start(tournament, seed=1))
    previewed = refreshed(tournament)
    anna = Player.objects.filter(tournament=tournament).order_by("start_number").first()
    assert anna is not None
    points_services.pause_player(tournament=tournament, actor=None, player_id=anna.pk)
    before = saved(tournament)
    with pytest.raises(points_services.PreviewOutdated) as refused:
        points_services.start_round(tournament=tournament, actor=None, seed=5, previewed_version=previewed.version)
    assert "Something changed since this preview" in refused.value.message
    assert saved(tournament) == before


@pytest.mark.django_db
def test_the_preview_refuses_what_seating_refuses() -> None:
    tournament = points_field(players=8, rounds_planned=2, games_per_round=1)
    start(tournament, seed=1)
    with pytest.raises(ServiceError, match="still playing"):
        points_services.plan_next_round(refreshed(tournament), seed=1)


# --------------------------------------------------------------------------
# The pages
# --------------------------------------------------------------------------


@pytest.mark.django_db
class TestPreviewPage:
    def test_preview_then_seat_as_shown(self, client, staff_user):
        # Six players at tables of three: from round 3 on some pairs must meet again.
        tournament = points_field(players=6, rounds_planned=4, games_per_round=1, table_size=3, table_size_max=3)
        play_round(tournament, start(tournament, seed=1))
        play_round(tournament, start(tournament, seed=2), seed=2)
        client.force_login(staff_user(tournament, enums.Role.ORGANISER))

        rounds_page = client.get(reverse("tournament:rounds", args=[tournament.pk])).content.decode()
        assert preview_url(tournament, 3) in rounds_page and "Preview round 3" in rounds_page

        response = client.get(preview_url(tournament, 3, seed=4242))
        page = response.content.decode()
        assert response.status_code == 200
        planned = points_services.plan_next_round(refreshed(tournament), seed=4242)
        assert planned.plan.unavoidable_repeats > 0  # the bound is not trivial here
        assert f"repeated pairs (unavoidable: at least {planned.plan.unavoidable_repeats})" in page
        assert "met once before." in page or "times before." in page
        assert 'name="seed" value="4242"' in page and "Seat round 3 as shown" in page
        assert saved(tournament)[1] == sorted(
            Round.objects.filter(tournament=tournament).values_list("number", "seed", "status")
        )

        response = client.post(
            seat_url(tournament, 3), {"seed": "4242", "choice": "", "version": refreshed(tournament).version}
        )
        assert response.status_code == 302 and response.url == reverse("tournament:rounds", args=[tournament.pk])
        third = Round.objects.get(tournament=tournament, number=3)
        assert third.seed == 4242 and seating_of(third) == [tuple(table) for table in planned.plan.tables]
        entry = AuditEntry.objects.filter(tournament=tournament, action="points_round_started").latest("pk")
        assert entry.detail["previewed"] is True and entry.detail["seed"] == 4242
        page = client.get(response.url).content.decode()
        assert f"{third} seated." in page and "Repeated pairs:" in page

    def test_another_draw_gets_a_new_seed(self, client, staff_user):
        tournament = points_field(players=12, rounds_planned=2)
        client.force_login(staff_user(tournament, enums.Role.ORGANISER))
        seeds = set()
        for _ in range(3):
            page = client.get(preview_url(tournament, 1)).content.decode()
            seeds.add(page.split('name="seed" value="', 1)[1].split('"', 1)[0])
        assert len(seeds) > 1
        assert Round.objects.filter(tournament=tournament).count() == 0

    def test_a_double_tap_seats_once(self, client, staff_user):
        tournament = points_field(players=12, rounds_planned=2)
        client.force_login(staff_user(tournament, enums.Role.ORGANISER))
        form = {"seed": "77", "choice": "", "version": refreshed(tournament).version}
        first = client.post(seat_url(tournament, 1), form)
        second = client.post(seat_url(tournament, 1), form)
        assert first.status_code == second.status_code == 302
        assert Round.objects.filter(tournament=tournament).count() == 1
        page = client.get(second.url).content.decode()
        assert "Round 1 is already seated." in page

    def test_a_stale_preview_shows_the_new_one(self, client, staff_user):
        tournament = points_field(players=9, rounds_planned=3, games_per_round=1)
        play_round(tournament, start(tournament, seed=1))
        client.force_login(staff_user(tournament, enums.Role.ORGANISER))
        version = refreshed(tournament).version
        anna = Player.objects.filter(tournament=tournament).order_by("start_number").first()
        points_services.pause_player(tournament=tournament, actor=None, player_id=anna.pk)
        before = saved(tournament)
        response = client.post(seat_url(tournament, 2), {"seed": "31", "choice": "", "version": version})
        assert response.status_code == 302 and response.url == preview_url(tournament, 2, seed=31)
        assert saved(tournament) == before
        page = client.get(response.url).content.decode()
        assert "Something changed since this preview" in page
        assert f'name="version" value="{refreshed(tournament).version}"' in page

    def test_a_count_that_does_not_split_asks_first(self, client, staff_user):
        tournament = points_field(players=5, rounds_planned=2)
        client.force_login(staff_user(tournament, enums.Role.ORGANISER))
        page = client.get(preview_url(tournament, 1, seed=9)).content.decode()
        assert "cannot be split into tables of 3 to 4" in page and 'type="radio"' in page
        code = page.split('name="choice" value="', 1)[1].split('"', 1)[0]
        page = client.get(preview_url(tournament, 1, seed=9, choice=code)).content.decode()
        assert "Seat round 1 as shown" in page and f'name="choice" value="{code}"' in page
        response = client.post(
            seat_url(tournament, 1), {"seed": "9", "choice": code, "version": refreshed(tournament).version}
        )
        assert response.status_code == 302
        assert "chosen:" in Round.objects.get(tournament=tournament, number=1).seating_note

    def test_bad_input_is_never_a_500_and_saves_nothing(self, client, staff_user):
        tournament = points_field(players=8, rounds_planned=2, games_per_round=1)
        start(tournament, seed=1)
        client.force_login(staff_user(tournament, enums.Role.ORGANISER))
        before = saved(tournament)
        # Tables still playing: the preview says so.
        page = client.get(preview_url(tournament, 2)).content.decode()
        assert "still playing" in page and "as shown" not in page
        for query in ({"seed": "abc"}, {"seed": "9" * 40}, {"seed": "-3"}, {"choice": "x" * 500}):
            assert client.get(preview_url(tournament, 2, **query)).status_code == 200, query
        # Another round number goes to the next round's preview.
        for number in (1, 3, 10**12):
            response = client.get(preview_url(tournament, number))
            assert (response.status_code, response.url) == (302, preview_url(tournament, 2)), number
        version = refreshed(tournament).version
        for form in (
            {"seed": "abc", "version": version},
            {"seed": "5"},
            {"seed": "5", "version": "x"},
            {"seed": "5", "version": version, "choice": "nonsense"},
            {"seed": "5", "version": version},
        ):
            response = client.post(seat_url(tournament, 2), form)
            assert response.status_code == 302, form
            page = client.get(response.url, follow=True).content.decode()
            assert "still playing" in page or "incomplete" in page, form
        assert client.post(seat_url(tournament, 1), {"seed": "5", "version": version}).status_code == 302
        assert client.get(f"/t/{tournament.pk}/points/rounds/x/preview/").status_code == 404
        assert saved(tournament) == before

    def test_the_desk_can_neither_preview_nor_seat(self, client, staff_user):
        tournament = points_field(players=8, rounds_planned=2)
        client.force_login(staff_user(tournament, enums.Role.DESK))
        assert client.get(preview_url(tournament, 1)).status_code == 403
        response = client.post(seat_url(tournament, 1), {"seed": "5", "version": refreshed(tournament).version})
        assert response.status_code == 403
        assert Round.objects.filter(tournament=tournament).count() == 0


def preview_queries(client, tournament: Tournament) -> int:  # type: ignore[no-untyped-def]
    with CaptureQueriesContext(connection) as queries:
        response = client.get(preview_url(tournament, 2, seed=3))
    assert response.status_code == 200 and "as shown" in response.content.decode()
    return len(queries)


def round_one_played(players: int) -> Tournament:
    tournament = points_field(players=players, rounds_planned=3, games_per_round=1, keep_clubs_apart=True)
    play_round(tournament, start(tournament, seed=1))
    return tournament


# Session, user, role, tournament, rounds played, latest round, tables playing, players,
# history, the preview's players and the base template's reads.
PINNED_PREVIEW = 12


@pytest.mark.django_db
def test_the_preview_costs_the_same_queries_at_two_sizes(client, staff_user):
    small, large = round_one_played(8), round_one_played(60)
    counts = []
    for tournament in (small, large):
        client.force_login(staff_user(tournament, enums.Role.ORGANISER))
        counts.append(preview_queries(client, tournament))
    assert counts == [PINNED_PREVIEW, PINNED_PREVIEW]
