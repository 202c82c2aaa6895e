"""One game at a table and its scores.

A game is never edited in place: an undo marks it voided, a correction is a
new game that supersedes the old one. ``idempotency_key`` makes a retried
submission from a tablet record the game once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class GameStatus(models.TextChoices):
    VALID = "valid", _("Valid")
    VOIDED = "voided", _("Undone")
    SUPERSEDED = "superseded", _("Corrected")
    # A player's entry waiting for a table-mate's confirmation (``tournament.passes.table_entry``):
    # it counts nowhere until it is confirmed (then valid, the same row) or rejected (voided).
    PENDING = "pending", _("Waiting for confirmation")


# What a game's status reads as on the pages and in the exports. A superseded game is the one a
# correction replaced: "Superseded", where "Corrected" read as "correct" (and the new game is the
# one marked "corrected"). The field's choices keep their stored labels (changing them asks for a
# migration that changes nothing in the database).
STATUS_WORDS = {
    GameStatus.VALID: _("Valid"),
    GameStatus.VOIDED: _("Undone"),
    GameStatus.SUPERSEDED: _("Superseded"),
    GameStatus.PENDING: _("Waiting for confirmation"),
}


class Game(models.Model):
    table = models.ForeignKey("tournament.Table", on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=20, choices=GameStatus.choices, default=GameStatus.VALID)
    winner = models.ForeignKey(
        "tournament.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="games_won"
    )
    loser = models.ForeignKey(
        "tournament.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="games_lost"
    )
    dealer_position = models.PositiveSmallIntegerField(null=True, blank=True)
    idempotency_key = models.CharField(max_length=64, null=True, blank=True, unique=True)
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_by"
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Why the organiser voided or corrected this game (empty for a referee's undo).
    void_reason = models.CharField(max_length=300, blank=True)
    # Why this game replaced the one it supersedes (a correction's reason).
    correction_reason = models.CharField(max_length=300, blank=True)
    # The table's version right after this game was recorded. A tablet that
    # queued further entries while offline sends the next one with this
    # version, even when the answer to this one was lost and it is replayed.
    table_version = models.PositiveIntegerField(null=True, blank=True, editable=False)
    # A player's own entry (``tournament.passes.table_entry``): who entered it with their pass, what
    # they posted (the winner or loser and the calculator's fields, posted again when it is
    # confirmed), and who confirmed it: a table-mate (``confirmed_by_player``) or a referee.
    entered_by_player = models.ForeignKey(
        "tournament.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entry = models.JSONField(default=dict, blank=True, editable=False)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_by_player = models.ForeignKey(
        "tournament.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    # Not stored: True when a service returned this game for a retried
    # submission (same idempotency key) instead of recording a new one.
    replayed = False
    # Not stored: the locked table a result entry has just written this game at, holding in
    # memory what the entry read and refreshed (seats, games with scores; see
    # ``tournament.selectors.play.table_view_after_entry``). None on a game read from the database.
    table_after_entry: Any = None

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["table", "number", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "number"], condition=Q(status="valid"), name="one_valid_game_per_number"
            )
        ]

    def __str__(self) -> str:
        return f"{self.table} – {_('game')} {self.number}"

    @property
    def status_label(self) -> str:
        """The status in words (``STATUS_WORDS``): "Valid", "Undone", "Superseded"."""
        return str(STATUS_WORDS.get(self.status, self.status))  # type: ignore[call-overload]


def number_after(games: Iterable[Game]) -> int:
    """The number of the next game at a table whose games are ``games``: one after its last valid
    game, as the referee counts and the paper result slip numbers its lines. An undone game gives
    its number back (the game played instead is that game again: undo game 3, and the next is game
    3); a correction keeps the number of the game it supersedes. Undone and corrected games keep
    their numbers, so two games of a table can share one: at most one of them is valid
    (``one_valid_game_per_number``)."""
    return max((game.number for game in games if game.status == GameStatus.VALID), default=0) + 1


class GameScore(models.Model):
    """Points of one player in one game; ``hand`` keeps the calculator's cards."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="scores")
    player = models.ForeignKey("tournament.Player", on_delete=models.PROTECT, related_name="scores")
    points = models.IntegerField(default=0)
    hand = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("score")
        verbose_name_plural = _("scores")
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="score_unique_per_player"),
            models.CheckConstraint(condition=Q(points__gte=0), name="score_points_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.points}"
