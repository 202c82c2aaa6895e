"""The organiser's rounds page and steps, through the views.

For every format (``scenarios``): the first step seats round 1 and the next one
waits for the tables (409, nothing saved). Life bands: the main round, the
consolation tables formed from the waiting pool while the main round plays on,
the main round re-seated, the grand final refused until both are over, an
unknown step refused; four players reach the grand final through a consolation
round of their own. Points: the scoring table is chosen before play and locked
once card points count (the settings page says so). (Who may take the steps at
all: ``test_access``.)
"""

from __future__ import annotations

import pytest

from games.rules.uno import HOUSE_RULES_SCORING
from tournament import enums
from tournament.formats.points import services as points_services
from tournament.models import PoolEntry, Round, Seat, Table
from tournament.tests.helpers import seated, set_dealer, undo, url
from tournament.tests.views.scenarios import (  # noqa: F401 (fixtures)
    FORMATS,
    built_fixture,
    cheap_clients_fixture,
    client_handler_fixture,
    cut_band,
    field,
    scenario_fixture,
    snapshot,
    win,
)

pytestmark = [pytest.mark.core, pytest.mark.django_db]

LIFE_BANDS, POINTS = enums.Format.LIFE_BANDS, enums.Format.POINTS


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("who", ["organiser", "superuser"])
def test_round_one_is_seated_then_the_next_step_waits_for_the_tables(client, login_as, scenario, who):
    ready = scenario.ready
    login_as(who, ready)
    assert client.get(url("rounds", ready)).status_code == 200
    ((_m, path, data),) = scenario.requests(["next_round"])
    response = client.post(path, data)
    assert response.status_code == 302 and response["Location"] == url("rounds", ready)
    assert Round.objects.filter(tournament=ready).count() == 1
    first = Table.objects.filter(round__tournament=ready).order_by("number").first()
    assert first is not None
    page = client.get(url("rounds", ready))
    assert page.status_code == 200
    assert all(seat.player.name in page.content.decode() for seat in first.seats.select_related("player"))
    before = snapshot()
    again = client.post(path, data)
    assert again.status_code == 409 and "still playing" in again.content.decode()
    assert snapshot() == before
    # The reason stands above the region the page's poll replaces: it stays while the organiser reads it.
    body = again.content.decode()
    refusal = body.index('id="step-refused"')
    assert refusal < body.index('id="rounds-body"') and "still playing" in body[refusal : body.index("</div>", refusal)]


class TestLifeBands:
    @pytest.mark.parametrize("fmt", [LIFE_BANDS])
    @pytest.mark.parametrize("who", ["organiser", "superuser"])
    def test_organiser_runs_every_step(self, client, login_as, scenario, who):
        tournament = scenario.tournament
        login_as(who, tournament)
        assert client.get(url("rounds", tournament)).status_code == 200

        # The main round cannot be re-seated while table 1 plays: refused, nothing saved.
        before = snapshot()
        refused = client.post(url("next_round", tournament), {"action": "main"})
        assert refused.status_code == 409 and "still playing" in refused.content.decode()
        assert snapshot() == before

        # Three wait: one tap forms a consolation table while the main round plays on.
        response = client.post(url("next_round", tournament), {"action": "consolation"})
        assert response.status_code == 302 and response["Location"] == url("rounds", tournament)
        consolation = Round.objects.get(tournament=tournament, stage=enums.Stage.CONSOLATION)
        assert sorted(Seat.objects.filter(table__round=consolation).values_list("player_id", flat=True)) == sorted(
            PoolEntry.objects.filter(left_reason=PoolEntry.Left.SEATED).values_list("player_id", flat=True)
        )
        assert not PoolEntry.objects.filter(tournament=tournament, left_at__isnull=True).exists()

        # Table 1 decided: the survivors are re-seated.
        cut_band(tournament, scenario.playing, seated(scenario.playing)[0])
        response = client.post(url("next_round", tournament), {"action": "main"})
        assert response.status_code == 302
        main = Round.objects.filter(tournament=tournament, stage=enums.Stage.MAIN).order_by("number")
        assert main.count() == 2 and main.last().tables.count() == 2  # type: ignore[union-attr]

        # The grand final is refused until both rounds are over; an unknown step is a bad request.
        refused = client.post(url("next_round", tournament), {"action": "grand_final"})
        assert refused.status_code == 409 and "not over yet" in refused.content.decode()
        assert client.post(url("next_round", tournament), {"action": "jump"}).status_code == 400

    def test_grand_final_of_four(self, client, login_as):
        """Four players: the main final, its 2 out qualify from the pool directly, then the grand final."""
        tournament = field(LIFE_BANDS, 4, seed=8)
        login_as("organiser", tournament)
        assert client.post(url("next_round", tournament), {"action": "main"}).status_code == 302
        final = Table.objects.get(round__tournament=tournament)
        assert final.is_final
        a, b, *_rest = seated(final)
        cut_band(tournament, final, a)
        cut_band(tournament, final, b)
        assert client.post(url("next_round", tournament), {"action": "consolation"}).status_code == 302
        assert client.post(url("next_round", tournament), {"action": "grand_final"}).status_code == 302
        gf = Round.objects.get(tournament=tournament, stage=enums.Stage.GRAND_FINAL).tables.get()
        assert sorted(seated(gf)) == sorted(seated(final))
        assert set(gf.seats.values_list("chips", flat=True)) == {tournament.chips_grand_final}
        assert client.post(url("next_round", tournament), {"action": "grand_final"}).status_code == 409


class TestPoints:
    @pytest.mark.parametrize("fmt", [POINTS])
    @pytest.mark.parametrize("who", ["organiser", "superuser"])
    def test_scoring_table_before_play_locked_once_points_count(self, client, login_as, scenario, who):
        tournament, ready = scenario.tournament, scenario.ready
        login_as(who, tournament)
        before = snapshot()
        ((_m, path, data),) = scenario.requests(["next_round_playing"])
        assert client.post(path, data).status_code == 409, "tables still playing"
        ((_m, path, data),) = scenario.requests(["scoring_locked"])
        assert client.post(path, data).status_code == 422, "card points recorded: locked"
        assert snapshot() == before

        login_as(who, ready)
        ((_m, path, data),) = scenario.requests(["scoring"])
        assert client.post(path, data).status_code == 302
        ready.refresh_from_db()
        assert ready.scoring_table == dict(HOUSE_RULES_SCORING)
        assert client.get(url("rounds", ready)).status_code == 200
        ((_m, path, data),) = scenario.requests(["next_round"])
        response = client.post(path, data)
        assert response.status_code == 302 and response["Location"] == url("rounds", ready)
        assert Round.objects.filter(tournament=ready).count() == 1

    @pytest.mark.parametrize("fmt", [POINTS])
    def test_settings_page_shows_the_lock(self, client, login_as, scenario):
        login_as("organiser", scenario.tournament)
        locked = "the scoring table is locked"
        assert locked in client.get(url("settings", scenario.tournament)).content.decode()
        other = scenario.ready
        rnd = points_services.start_round(tournament=other, actor=None, seed=1)
        table = rnd.tables.order_by("number").first()
        a, _b, _c = set_dealer(other, table)
        win(other, table, a)
        undo(other, table)  # the only game undone: nothing counts, the table may change
        login_as("organiser", other)
        assert locked not in client.get(url("settings", other)).content.decode()


def test_the_knockout_question_stays_while_the_organiser_reads_it(client, login_as):  # type: ignore[no-untyped-def]
    """Fourteen players: seating round 1 asks (409) with the options in words, the first ticked. The
    question's form carries data-dirty, so the page's poll (poll.js, every 5 s) leaves it alone: it
    replaced the question by the plain "Seat round 1" step while the organiser was reading it."""
    tournament = field(enums.Format.KNOCKOUT, 14, seed=26)
    login_as("organiser", tournament)
    response = client.post(url("next_round", tournament), {"action": ""})
    page = response.content.decode()
    assert response.status_code == 409 and "the final cannot have exactly 3 players" in page
    form = page[page.index('<form method="post" action="' + url("next_round", tournament)) :]
    form = form[: form.index("</form>")]
    assert form.split(">", 1)[0].endswith("data-dirty"), "the poller leaves the question alone"
    first = form[form.index('name="choice"') :].split(">", 1)[0]
    assert "checked" in first and "3 + 3 + 3 + 3 + 2 (one table of 2)" in form
    assert not Round.objects.filter(tournament=tournament).exists()
