"""factory-boy factories for tests and the demo data."""

from __future__ import annotations

import datetime

import factory
from django.contrib.auth import get_user_model

from tournament import desk, enums, models


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


def tick_all(player: models.Player) -> None:
    """Tick every checklist item of the player's tournament."""
    for item in player.tournament.checklist_items.all():
        models.PlayerCheck.objects.get_or_create(player=player, item=item)
