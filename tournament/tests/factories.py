"""factory-boy factories for tests and the demo data."""

from __future__ import annotations

import datetime

import factory
from django.contrib.auth import get_user_model

from tournament import desk, enums, folding, models


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", "pw-for-tests-123")


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Tournament
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Test championship {n}")
    date = factory.LazyFunction(lambda: datetime.date(2026, 11, 21))
    venue = "Hallenbad"
    game = enums.Game.UNO
    format = enums.Format.KNOCKOUT
    capacity = 50
    status = enums.TournamentStatus.REGISTRATION

    @factory.post_generation
    def checklist(self, create: bool, extracted: list[str] | None, **kwargs: object) -> None:
        labels = ["Diving licence (OWD)", "Medical certificate"] if extracted is None else extracted
        for position, label in enumerate(labels):
            models.ChecklistItem.objects.create(tournament=self, label=label, position=position)


class StaffRoleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.StaffRole

    tournament = factory.SubFactory(TournamentFactory)
    user = factory.SubFactory(UserFactory)
    role = enums.Role.DESK


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Player

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"Player {n:04d}")
    club = factory.Iterator(["TSV Nord", "UNO Club Süd", "Tauchclub Ost", ""])
    contact = factory.Sequence(lambda n: f"player{n}@example.org")
    status = enums.PlayerStatus.REGISTERED
    name_key = factory.LazyAttribute(lambda player: desk.name_key(player.name))


def insert_players(players: list[models.Player]) -> list[models.Player]:
    """Unsaved players (``PlayerFactory.build_batch``) written in one insert, ``folded`` set as
    ``Player.save()`` sets it (``bulk_create`` does not call it)."""
    for player in players:
        player.folded = folding.search_text(player.name, player.club)
    return models.Player.objects.bulk_create(players)


def players_in_bulk(count: int, **fields: object) -> list[models.Player]:
    """``PlayerFactory.create_batch(count, **fields)`` in one insert: the same rows. For the big
    fields of the query-count tests, where a row at a time took most of the test's time."""
    return insert_players(PlayerFactory.build_batch(count, **fields))


def tick_all(player: models.Player) -> None:
    """Tick every checklist item of the player's tournament."""
    for item in player.tournament.checklist_items.all():
        models.PlayerCheck.objects.get_or_create(player=player, item=item)
