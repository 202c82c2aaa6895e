"""Reads of the tombola: the organiser's page, the projector's view, the printout, a winner's phone.

Fixed query counts: the prizes with their draws and players (two queries), and for the
organiser's page who can still win (``entrants``: ids only). A tombola has tens of
prizes, not thousands (``desk.tombola.PRIZES_MAX``): it is read whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch

from tournament import draws, enums
from tournament.models import Player, TombolaDraw, TombolaPrize, Tournament

# The drawn prizes the projector lists beside the one just drawn (the latest first).
SCREEN_LINES = 10


@dataclass
class PrizeRow:
    """A prize with its draws in the order made: ``winner`` the draw that counts (None while
    open), ``absent`` the winners who were not there."""

    prize: TombolaPrize
    draws: list[TombolaDraw]
    winner: TombolaDraw | None
    absent: list[TombolaDraw] = field(default_factory=list)

    @property
    def drawn(self) -> bool:
        return bool(self.draws)


@dataclass
class Tombola:
    rows: list[PrizeRow]

    @property
    def next_prize(self) -> PrizeRow | None:
        """The prize "draw the next prize" draws: the first without a winner."""
        return next((row for row in self.rows if row.winner is None), None)

    @property
    def given(self) -> int:
        return sum(1 for row in self.rows if row.winner is not None)

    @property
    def latest(self) -> PrizeRow | None:
        """The prize whose winner was drawn last (the projector shows it large)."""
        won = [row for row in self.rows if row.winner is not None]
        return max(won, key=lambda row: (row.winner.drawn_at, row.winner.pk)) if won else None  # type: ignore[union-attr]

    @property
    def won_latest_first(self) -> list[PrizeRow]:
        won = [row for row in self.rows if row.winner is not None]
        return sorted(won, key=lambda row: (row.winner.drawn_at, row.winner.pk), reverse=True)  # type: ignore[union-attr]

    @property
    def draws_checked(self) -> bool:
        """Every stored draw gives its winner again from its seed and pool (``draws``)."""
        return all(
            draws.draw_tombola_winner(draw.pool, draw.seed) == draw.player_id for row in self.rows for draw in row.draws
        )


def read(tournament: Tournament) -> Tombola:
    """The prizes in order with their draws and each draw's player (two queries)."""
    prizes = TombolaPrize.objects.filter(tournament=tournament).prefetch_related(
        Prefetch("draws", queryset=TombolaDraw.objects.select_related("player").order_by("drawn_at", "pk"))
    )
    rows = []
    for prize in prizes:
        made = list(prize.draws.all())
        winner = next((draw for draw in made if draw.absent_at is None), None)
        rows.append(PrizeRow(prize, made, winner, [draw for draw in made if draw.absent_at is not None]))
    return Tombola(rows)


def won_by(tournament: Tournament, player_ids: list[int]) -> dict[int, list[TombolaPrize]]:
    """The prizes each of ``player_ids`` holds (one query; the phone page's "you won")."""
    won: dict[int, list[TombolaPrize]] = {}
    if not player_ids:
        return won
    for draw in (
        TombolaDraw.objects.filter(prize__tournament=tournament, player_id__in=player_ids, absent_at__isnull=True)
        .select_related("prize")
        .order_by("prize__position")
    ):
        won.setdefault(draw.player_id, []).append(draw.prize)
    return won


@dataclass(frozen=True)
class Entrants:
    """What a prize is drawn among: those present, and those left out (absent, podium, winners)."""

    present: list[int]
    winners: list[int]
    absent: list[int]
    excluded: list[int]
    repeat_allowed: bool

    def pool(self) -> list[int]:
        return draws.tombola_pool(
            self.present,
            winners=self.winners,
            absent=self.absent,
            excluded=self.excluded,
            repeat_allowed=self.repeat_allowed,
        )


def podium_ids(tournament: Tournament) -> list[int]:
    """The players on the podium of the final ranking (places 1–3, shared places included)."""
    from tournament.selectors import ranking  # the ranking reads the formats; imported when needed

    return [row.player.pk for row in ranking.rows(tournament) if row.place <= 3]


def entrants(tournament: Tournament) -> Entrants:
    """Who takes part in the tombola now (``tournament`` as locked or read), in three queries
    (present, the draws, and the ranking's when the podium is left out)."""
    present = list(
        Player.objects.filter(tournament=tournament, status=enums.PlayerStatus.CHECKED_IN).values_list("pk", flat=True)
    )
    winners: list[int] = []
    absent: list[int] = []
    for player_id, absent_at in TombolaDraw.objects.filter(prize__tournament=tournament).values_list(
        "player_id", "absent_at"
    ):
        (winners if absent_at is None else absent).append(player_id)
    excluded = podium_ids(tournament) if tournament.tombola_skip_podium else []
    return Entrants(present, winners, absent, excluded, tournament.tombola_repeat_winners)
