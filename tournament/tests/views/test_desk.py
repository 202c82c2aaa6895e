"""Desk pages through the test client: rendering, bad input, roles, query counts."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament import desk, enums
from tournament.models import AuditEntry, CheckIn, Player, PlayerCheck, StaffRole, Tournament
from tournament.tests.factories import PlayerFactory, TournamentFactory, insert_players, tick_all

pytestmark = [pytest.mark.core, pytest.mark.django_db]


def url(name: str, tournament: Tournament, *args: object) -> str:
    return reverse(f"tournament:{name}", args=[tournament.pk, *args])


class TestPagesRender:
    def test_desk_page_shows_counters(self, desk_client, tournament):
        PlayerFactory.create_batch(3, tournament=tournament)
        PlayerFactory(tournament=tournament, status=enums.PlayerStatus.WAITING, name="Wartende Person")
        response = desk_client.get(url("desk", tournament))
        assert response.status_code == 200
        body = response.content.decode()
        assert 'data-counter="registered">3' in body
        assert 'data-counter="waiting">1' in body
        assert "Wartende Person" in body

    def test_home_lists_only_own_tournaments(self, client, tournament, staff_user):
        other = TournamentFactory(name="Someone else's cup")
        client.force_login(staff_user(tournament, enums.Role.DESK))
        body = client.get(reverse("tournament:home")).content.decode()
        assert tournament.name in body
        assert other.name not in body

    @pytest.mark.parametrize("name", ["desk", "check_in", "draw", "import", "print_cards", "print_players"])
    def test_desk_pages_render(self, desk_client, tournament, name):
        PlayerFactory.create_batch(2, tournament=tournament)
        assert desk_client.get(url(name, tournament)).status_code == 200

    @pytest.mark.parametrize("name", ["settings", "staff"])
    def test_organiser_pages_render(self, organiser_client, tournament, name):
        assert organiser_client.get(url(name, tournament)).status_code == 200


class TestCreateTournament:
    def test_create_makes_creator_organiser(self, client, make_user):
        user = make_user("clerk")
        client.force_login(user)
        response = client.post(
            reverse("tournament:create"),
            {
                "name": "Schocken Cup",
                "date": "2026-12-05",
                "venue": "Gasthaus",
                "game": "schocken",
                "format": "life_bands",
                "capacity": "40",
                "entry_fee": "5",
                "checklist": "Entry fee paid\nOwn dice and cup",
                "window_1_opens": "2026-12-05T16:30",
                "window_1_closes": "2026-12-05T16:45",
            },
        )
        tournament = Tournament.objects.get(name="Schocken Cup")
        assert response.status_code == 302
        assert response["Location"] == url("desk", tournament)
        assert StaffRole.objects.filter(tournament=tournament, user=user, role=enums.Role.ORGANISER).exists()
        assert [i.label for i in tournament.checklist_items.all()] == ["Entry fee paid", "Own dice and cup"]
        assert tournament.registration_windows.count() == 1

    @pytest.mark.parametrize(
        ("changes", "message"),
        [
            ({"game": "schocken", "format": "knockout"}, "Knockout, lucky losers, points final is played with UNO."),
            ({"window_1_opens": "2026-12-05T16:30"}, "Give both the opening and the closing time"),
            ({"window_1_opens": "2026-12-05T16:30", "window_1_closes": "2026-12-05T16:00"}, "must close after"),
            ({"capacity": "2"}, "greater than or equal to 3"),
            ({"name": ""}, "This field is required"),
        ],
    )
    def test_bad_input_saves_nothing(self, client, make_user, changes, message):
        client.force_login(make_user())
        data = {
            "name": "Cup",
            "date": "2026-12-05",
            "game": "uno",
            "format": "knockout",
            "capacity": "50",
            "entry_fee": "0",
        }
        response = client.post(reverse("tournament:create"), data | changes)
        assert response.status_code == 200
        assert message in response.content.decode()
        assert not Tournament.objects.exists()

    def test_bad_input_is_translated(self, client, make_user):
        client.force_login(make_user())
        data = {
            "name": "Cup",
            "date": "2026-12-05",
            "game": "schocken",
            "format": "knockout",
            "capacity": "50",
            "entry_fee": "0",
        }
        response = client.post(reverse("tournament:create"), data, HTTP_ACCEPT_LANGUAGE="de")
        assert "K.-o.-System, Lucky Loser, Punktefinale wird mit UNO gespielt." in response.content.decode()


class TestRegister:
    def test_register_and_waiting_list_message(self, desk_client, tournament):
        tournament.capacity = 3
        tournament.save()
        PlayerFactory.create_batch(3, tournament=tournament)
        response = desk_client.post(url("register", tournament), {"name": "Late Larry"}, follow=True)
        assert "waiting list" in response.content.decode()
        assert Player.objects.get(name="Late Larry").status == enums.PlayerStatus.WAITING

    def test_same_name_asks_then_registers(self, desk_client, tournament):
        PlayerFactory(tournament=tournament, name="Anna Huber")
        response = desk_client.post(url("register", tournament), {"name": "anna  huber"})
        assert response.status_code == 200
        body = response.content.decode()
        assert "already registered" in body
        assert Player.objects.filter(tournament=tournament).count() == 1
        # The re-rendered form carries the confirmation; submitting it registers.
        assert 'name="confirm_same_name" value="True"' in body
        desk_client.post(url("register", tournament), {"name": "anna  huber", "confirm_same_name": "True"})
        assert Player.objects.filter(tournament=tournament).count() == 2

    def test_empty_name_refused(self, desk_client, tournament):
        response = desk_client.post(url("register", tournament), {"name": "  "})
        assert response.status_code == 422
        assert not Player.objects.exists()


class TestImport:
    def upload(self, client, tournament, text: str, **extra: str):
        data = {"file": SimpleUploadedFile("players.csv", text.encode()), **extra}
        return client.post(url("import", tournament), data)

    def test_bad_rows_reported_and_nothing_imported(self, desk_client, tournament):
        response = self.upload(desk_client, tournament, "name;club\nAnna;A\n;B\nBert;C;d;e\nAnna;X\n")
        body = response.content.decode()
        assert response.status_code == 422
        assert "Nothing has been imported" in body
        for line in (3, 4, 5):
            assert f'<td class="num">{line}</td>' in body
        assert not Player.objects.exists()

    def test_then_import_only_good_rows(self, desk_client, tournament):
        text = "Anna;A\n;B\nBert;C\n"
        self.upload(desk_client, tournament, text)
        response = desk_client.post(url("import", tournament), {"text": text, "skip_bad_rows": "on"})
        assert response.status_code == 302
        assert sorted(Player.objects.values_list("name", flat=True)) == ["Anna", "Bert"]

    def test_clean_file_imports(self, desk_client, tournament):
        response = self.upload(desk_client, tournament, "Anna,A,a@x.org\nBert,B,\n")
        assert response.status_code == 302
        assert Player.objects.count() == 2


class TestCheckIn:
    def test_search_partial_for_htmx(self, desk_client, tournament):
        PlayerFactory(tournament=tournament, name="Zoe Zebra")
        PlayerFactory(tournament=tournament, name="Max Muster")
        response = desk_client.get(
            url("check_in", tournament), {"q": "zeb"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="player-list"
        )
        body = response.content.decode()
        assert "Zoe Zebra" in body and "Max Muster" not in body
        assert "<html" not in body

    def test_search_by_start_number(self, desk_client, tournament):
        PlayerFactory(tournament=tournament, name="Nummer Sieben", start_number=7)
        PlayerFactory(tournament=tournament, name="Andere")
        body = desk_client.get(url("check_in", tournament), {"q": "7"}).content.decode()
        assert "Nummer Sieben" in body and "Andere" not in body

    def test_open_items_need_override(self, desk_client, tournament):
        player = PlayerFactory(tournament=tournament)
        response = desk_client.post(url("player_check_in", tournament, player.pk), HTTP_HX_REQUEST="true")
        assert "Override: check in anyway" in response.content.decode()
        player.refresh_from_db()
        assert player.status == enums.PlayerStatus.REGISTERED
        # Without a reason the question stays open, with the reason asked for.
        response = desk_client.post(
            url("player_check_in", tournament, player.pk), {"override": "1"}, HTTP_HX_REQUEST="true"
        )
        assert "Give the reason for the override" in response.content.decode()
        assert 'name="override_reason"' in response.content.decode()
        assert not CheckIn.objects.filter(player=player).exists()
        response = desk_client.post(
            url("player_check_in", tournament, player.pk),
            {"override": "1", "override_reason": "  certificate   by e-mail "},
            HTTP_HX_REQUEST="true",
        )
        player.refresh_from_db()
        assert player.status == enums.PlayerStatus.CHECKED_IN
        check_in = CheckIn.objects.get(player=player)
        assert check_in.override and check_in.checked_in_by is not None
        assert check_in.override_reason == "certificate by e-mail"
        assert 'hx-swap-oob="true"' in response.content.decode()

    def test_the_override_question_works_without_javascript(self, desk_client, tournament):
        player = PlayerFactory(tournament=tournament)
        response = desk_client.post(url("player_check_in", tournament, player.pk))
        assert response.status_code == 200
        assert 'name="override_reason"' in response.content.decode()
        desk_client.post(url("player_check_in", tournament, player.pk), {"override": "1", "override_reason": "ok"})
        player.refresh_from_db()
        assert player.status == enums.PlayerStatus.CHECKED_IN

    def test_one_tap_ticks_every_item_and_checks_in(self, desk_client, tournament):
        player = PlayerFactory(tournament=tournament)
        page = desk_client.get(url("check_in", tournament)).content.decode()
        assert "All checked ✓ Check in" in page
        response = desk_client.post(
            url("player_check_in", tournament, player.pk), {"all_checked": "1"}, HTTP_HX_REQUEST="true"
        )
        assert response.status_code == 200
        player.refresh_from_db()
        assert player.status == enums.PlayerStatus.CHECKED_IN
        assert player.checks.count() == tournament.checklist_items.count() == 2
        assert not CheckIn.objects.get(player=player).override

    def test_missing_opens_the_list_of_who_has_not_arrived(self, desk_client, tournament):
        here = PlayerFactory(tournament=tournament, name="Schon Da", status=enums.PlayerStatus.CHECKED_IN)
        PlayerFactory(tournament=tournament, name="Noch Weg")
        PlayerFactory(tournament=tournament, name="Warte Liste", status=enums.PlayerStatus.WAITING)
        desk_page = desk_client.get(url("desk", tournament)).content.decode()
        assert f'href="{url("check_in", tournament)}?show=missing"' in desk_page
        body = desk_client.get(url("check_in", tournament), {"show": "missing"}).content.decode()
        assert "Noch Weg" in body and here.name not in body and "Warte Liste" not in body
        body = desk_client.get(url("check_in", tournament), {"show": "waiting"}).content.decode()
        assert "Warte Liste" in body and "Noch Weg" not in body
        body = desk_client.get(url("check_in", tournament), {"show": "nonsense"}).content.decode()
        assert "Noch Weg" in body and "Schon Da" in body

    def test_a_walk_in_is_registered_and_checked_in_in_one_step(self, desk_client, tournament):
        response = desk_client.post(
            url("register", tournament), {"name": "Walter Walk-in", "club": "", "check_in_now": "on"}, follow=True
        )
        assert "Walter Walk-in registered and checked in." in response.content.decode()
        player = Player.objects.get(tournament=tournament, name="Walter Walk-in")
        assert player.status == enums.PlayerStatus.CHECKED_IN
        assert player.checks.count() == 2

    def test_tick_items_then_check_in(self, desk_client, tournament):
        player = PlayerFactory(tournament=tournament)
        for item in tournament.checklist_items.all():
            desk_client.post(url("toggle_check", tournament, player.pk, item.pk), {"done": "1"})
        desk_client.post(url("player_check_in", tournament, player.pk))
        player.refresh_from_db()
        assert player.status == enums.PlayerStatus.CHECKED_IN
        assert not CheckIn.objects.get(player=player).override

    def test_withdrawn_player_refused(self, desk_client, tournament):
        player = PlayerFactory(tournament=tournament, status=enums.PlayerStatus.WITHDRAWN)
        tick_all(player)
        response = desk_client.post(url("player_check_in", tournament, player.pk), HTTP_HX_REQUEST="true")
        assert "has withdrawn" in response.content.decode()
        assert not CheckIn.objects.exists()

    def test_withdraw_moves_waiting_list_up(self, desk_client, tournament):
        tournament.capacity = 3
        tournament.save()
        first, *_ = PlayerFactory.create_batch(3, tournament=tournament)
        waiting = PlayerFactory(tournament=tournament, status=enums.PlayerStatus.WAITING)
        desk_client.post(url("withdraw", tournament, first.pk), {"confirm": "1"})
        waiting.refresh_from_db()
        assert waiting.status == enums.PlayerStatus.REGISTERED


class TestDraw:
    def test_draw_without_players_refused(self, desk_client, tournament):
        response = desk_client.post(url("draw", tournament))
        assert response.status_code == 422
        assert "No player is checked in" in response.content.decode()
        assert not tournament.draws.exists()

    def test_draw_shows_seed_and_result(self, desk_client, tournament):
        for player in PlayerFactory.create_batch(4, tournament=tournament):
            tick_all(player)
            desk.check_in_player(tournament=tournament, actor=None, player_id=player.pk)
        response = desk_client.post(url("draw", tournament), {"seed": "4711"}, follow=True)
        body = response.content.decode()
        assert "4711" in body
        assert sorted(Player.objects.values_list("start_number", flat=True)) == [1, 2, 3, 4]
        assert AuditEntry.objects.filter(action="start_numbers_drawn").exists()

    def test_draw_again_refused_after_play_started(self, desk_client, tournament):
        player = PlayerFactory(tournament=tournament, status=enums.PlayerStatus.CHECKED_IN, start_number=1)
        tournament.status = enums.TournamentStatus.RUNNING
        tournament.save()
        response = desk_client.post(url("draw", tournament))
        assert response.status_code == 422
        assert "can no longer be drawn again" in response.content.decode()
        player.refresh_from_db()
        assert player.start_number == 1


DESK_POSTS = ["register", "import", "draw"]
PLAYER_POSTS = ["player_check_in", "withdraw", "no_show", "reinstate", "undo_check_in"]


class TestRoles:
    """Every staff view against every role: 403 without the role, login for anonymous."""

    def desk_urls(self, tournament, player, item):
        urls = [
            ("get", url(n, tournament))
            for n in ["desk", "check_in", "draw", "import", "print_cards", "print_players", "equipment"]
        ]
        urls += [("post", url(n, tournament)) for n in DESK_POSTS]
        urls += [("post", url(n, tournament, player.pk)) for n in PLAYER_POSTS]
        urls.append(("post", url("toggle_check", tournament, player.pk, item.pk)))
        urls.append(("post", url("toggle_returned", tournament, player.pk, item.pk)))
        return urls

    def organiser_urls(self, tournament, item):
        return [
            ("get", url("settings", tournament)),
            ("post", url("settings", tournament)),
            ("post", url("add_checklist_item", tournament)),
            ("post", url("remove_checklist_item", tournament, item.pk)),
            ("post", url("add_window", tournament)),
            ("post", url("scoring", tournament)),
            ("get", url("staff", tournament)),
            ("post", url("staff", tournament)),
        ]

    @pytest.mark.parametrize("role", [enums.Role.REFEREE, None, "other-tournament-organiser"])
    def test_desk_views_forbidden_without_desk_role(self, client, tournament, staff_user, make_user, role):
        player = PlayerFactory(tournament=tournament)
        item = tournament.checklist_items.first()
        if role is None:
            user = make_user()
        elif role == "other-tournament-organiser":
            user = staff_user(TournamentFactory(), enums.Role.ORGANISER)
        else:
            user = staff_user(tournament, role)
        client.force_login(user)
        for method, path in self.desk_urls(tournament, player, item):
            response = getattr(client, method)(path)
            assert response.status_code == 403, (role, path)
        player.refresh_from_db()
        assert player.status == enums.PlayerStatus.REGISTERED

    @pytest.mark.parametrize("role", [enums.Role.DESK, enums.Role.REFEREE])
    def test_organiser_views_forbidden_for_other_roles(self, client, tournament, staff_user, role):
        item = tournament.checklist_items.first()
        client.force_login(staff_user(tournament, role))
        for method, path in self.organiser_urls(tournament, item):
            assert getattr(client, method)(path).status_code == 403, (role, path)
        assert tournament.checklist_items.filter(pk=item.pk).exists()

    @pytest.mark.parametrize("role", [enums.Role.DESK, enums.Role.ORGANISER])
    def test_desk_views_allowed(self, client, tournament, staff_user, role):
        client.force_login(staff_user(tournament, role))
        assert client.get(url("check_in", tournament)).status_code == 200

    def test_anonymous_goes_to_login(self, client, tournament):
        player = PlayerFactory(tournament=tournament)
        item = tournament.checklist_items.first()
        for method, path in self.desk_urls(tournament, player, item) + self.organiser_urls(tournament, item):
            response = getattr(client, method)(path)
            assert response.status_code == 302 and response["Location"].startswith(reverse("login")), path

    def test_organiser_manages_staff(self, organiser_client, tournament):
        response = organiser_client.post(
            url("staff", tournament),
            {"account": "new", "username": "ref1", "role": "referee", "password": "long-enough-pw"},
        )
        assert response.status_code == 302
        assert StaffRole.objects.filter(tournament=tournament, user__username="ref1", role="referee").exists()
        response = organiser_client.post(
            url("staff", tournament),
            {"account": "existing", "username": "nobody", "role": "desk", "password": "long-enough-pw"},
        )
        assert response.status_code == 422
        assert "No account matches this user name and password." in response.content.decode()


def _populate(tournament: Tournament, count: int) -> None:
    """``count`` players (every second with the whole checklist ticked, every third checked in, by
    override where the checklist is open) and two on the waiting list. Written in a few bulk
    inserts: a row at a time, the 500 players took most of these tests' time."""
    players = PlayerFactory.build_batch(count, tournament=tournament)
    for index, player in enumerate(players):
        if index % 3 == 0:
            player.status = enums.PlayerStatus.CHECKED_IN
            player.start_number = index + 1
    players = insert_players(players)
    items = list(tournament.checklist_items.all())
    PlayerCheck.objects.bulk_create(
        PlayerCheck(player=player, item=item) for index, player in enumerate(players) if index % 2 for item in items
    )
    CheckIn.objects.bulk_create(
        CheckIn(player=player, override=index % 2 == 0) for index, player in enumerate(players) if index % 3 == 0
    )
    PlayerFactory.create_batch(2, tournament=tournament, status=enums.PlayerStatus.WAITING)


@pytest.mark.parametrize(
    "name", ["desk", "check_in", "draw", "import", "print_cards", "print_players", "equipment", "settings", "staff"]
)
def test_query_count_does_not_grow_with_players(client, staff_user, name):
    """Each desk page issues the same number of queries at 20 and at 500 players."""
    counts = []
    for size in (20, 500):
        tournament = TournamentFactory()
        _populate(tournament, size)
        desk.draw_start_numbers(tournament=tournament, actor=None, seed=1)
        client.force_login(staff_user(tournament, enums.Role.ORGANISER))
        if name == "print_cards":
            # The first print issues the players' passes in one bulk insert, which SQLite splits by its
            # limit of query parameters at 500 players; a reprint (the page's steady state) is counted.
            assert client.get(url(name, tournament)).status_code == 200
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url(name, tournament))
        assert response.status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


class TestEquipment:
    def test_deck_handed_back_is_ticked(self, desk_client, tournament):
        deck = tournament.checklist_items.create(label="Own deck", returnable=True, position=9)
        player = PlayerFactory(tournament=tournament)
        desk.set_check(tournament=tournament, actor=None, player_id=player.pk, item_id=deck.pk, done=True)
        page = desk_client.get(url("equipment", tournament)).content.decode()
        assert player.name in page and "Own deck" in page
        desk_client.post(url("toggle_returned", tournament, player.pk, deck.pk), {"returned": "1"})
        assert player.checks.get(item=deck).returned_at is not None

    def test_return_of_something_never_handed_in_is_refused(self, desk_client, tournament):
        deck = tournament.checklist_items.create(label="Own deck", returnable=True, position=9)
        player = PlayerFactory(tournament=tournament)
        response = desk_client.post(
            url("toggle_returned", tournament, player.pk, deck.pk), {"returned": "1"}, follow=True
        )
        assert "Nothing of this kind was handed in" in response.content.decode()
        assert not player.checks.exists()

    def test_create_form_marks_equipment_returnable(self, client, make_user):
        client.force_login(make_user())
        data = {
            "name": "Torneo UNO",
            "date": "2026-11-12",
            "game": "uno",
            "format": "points",
            "capacity": "40",
            "entry_fee": "3",
            "checklist": "Quota pagata",
            "equipment": "Mazzo controllato",
        }
        client.post(reverse("tournament:create"), data)
        tournament = Tournament.objects.get(name="Torneo UNO")
        assert list(tournament.checklist_items.values_list("label", "returnable")) == [
            ("Quota pagata", False),
            ("Mazzo controllato", True),
        ]


class TestScoring:
    def test_house_rules_preset(self, organiser_client, tournament):
        response = organiser_client.post(
            url("scoring", tournament),
            {"preset": "house_rules", "draw_two": 0, "reverse": 0, "skip": 0, "wild": 0, "wild_draw_four": 0},
        )
        assert response.status_code == 302
        tournament.refresh_from_db()
        assert tournament.scoring_table["wild_draw_four"] == 70

    def test_negative_custom_value_refused(self, organiser_client, tournament):
        before = dict(tournament.scoring_table)
        response = organiser_client.post(
            url("scoring", tournament),
            {"preset": "custom", "draw_two": -1, "reverse": 20, "skip": 20, "wild": 50, "wild_draw_four": 50},
        )
        assert response.status_code == 422
        tournament.refresh_from_db()
        assert tournament.scoring_table == before
