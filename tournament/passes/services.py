"""The writes of the player pass: a new pass from the desk, the passes printed on the start
cards, and "I'm at my table". The desk's writes are audited as the desk user; what a player
does with the pass is audited as that player (``writes.audit_by_player``)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import enums, qr
from tournament.errors import ServiceError
from tournament.models import Player, PlayerPass, Seat, SeatArrival, Tournament
from tournament.passes import tokens
from tournament.writes import User, acting_user, audit, audit_by_player, bump, lock_tournament


def replaced_message() -> str:
    return _("This pass was replaced; ask the desk for your new card.")


def new_pass_message() -> str:
    return _("New pass issued: the old link and QR code no longer open the pass. Give the player the new one.")


def _new_pass(player_id: int, actor: User | None) -> tuple[PlayerPass, str]:
    nonce = tokens.new_nonce()
    token = tokens.token_for(nonce)
    return PlayerPass(
        player_id=player_id, nonce=nonce, token_hash=tokens.hash_of(token), created_by=acting_user(actor)
    ), token


def issue_pass(*, tournament: Tournament, actor: User, player_id: int | None) -> tuple[PlayerPass, str]:
    """A new pass for the player (the desk's "New pass"): the live one is revoked at once, and the
    new pass and its token are returned. Audited ``pass_issued``; refused for a player who is not
    the tournament's."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        player = Player.objects.filter(pk=player_id, tournament=locked).only("pk").first() if player_id else None
        if player is None:
            raise ServiceError(_("No such player in this tournament."))
        replaced = PlayerPass.objects.filter(player=player, revoked_at__isnull=True).update(revoked_at=timezone.now())
        new, token = _new_pass(player.pk, actor)
        new.save()
        audit(locked, actor, "pass_issued", player=player.pk, replaced=bool(replaced))
        bump(locked)
    return new, token


def tokens_for_cards(players: Iterable[Player], actor: User | None) -> dict[int, str]:
    """Player id -> the token of their live pass, for the printed start cards: a player without
    one gets a pass now (``created_by`` the desk user printing; not audited, nothing else
    changes). One query when every player has a pass, three otherwise, whatever their number.

    A pass whose token no longer matches its hash (the site's secret key was changed) cannot be
    printed: it is revoked and replaced."""
    ids = [player.pk for player in players]
    found: dict[int, str] = {}
    stale: list[int] = []
    for player_id, nonce, token_hash in PlayerPass.objects.filter(
        player_id__in=ids, revoked_at__isnull=True
    ).values_list("player_id", "nonce", "token_hash"):
        token = tokens.token_for(nonce)
        if tokens.hash_of(token) == token_hash:
            found[player_id] = token
        else:
            stale.append(player_id)
    missing = [player_id for player_id in ids if player_id not in found]
    if not missing:
        return found
    with transaction.atomic():
        if stale:
            PlayerPass.objects.filter(player_id__in=stale, revoked_at__isnull=True).update(revoked_at=timezone.now())
        made = {player_id: _new_pass(player_id, actor) for player_id in missing}
        # Two desks printing at once: the pass the other made first stays (one live pass a player).
        PlayerPass.objects.bulk_create([new for new, _token in made.values()], ignore_conflicts=True)
        kept = PlayerPass.objects.filter(player_id__in=missing, revoked_at__isnull=True).values_list(
            "player_id", "nonce"
        )
        found.update({player_id: tokens.token_for(nonce) for player_id, nonce in kept})
    return found


def sit_down(*, pass_id: int, table_id: int | None) -> tuple[SeatArrival, bool]:
    """The player says "I'm at my table" for the table their pass shows (``table_id``, as the page
    saw it). Refused, nothing saved, for a revoked pass, a table the player does not sit at, or one
    no longer in play. A second tap finds the first arrival (``created`` False, nothing written).
    Audited ``sat_down`` as the player."""
    with transaction.atomic():
        holder = PlayerPass.objects.filter(pk=pass_id).values_list("player__tournament_id", flat=True).first()
        if holder is None:
            raise ServiceError(replaced_message())
        tournament = lock_tournament(holder)
        player_pass = PlayerPass.objects.filter(pk=pass_id).first()
        if player_pass is None or player_pass.revoked_at is not None:
            raise ServiceError(replaced_message())
        seat = (
            Seat.objects.filter(table_id=table_id, player_id=player_pass.player_id, table__round__tournament=tournament)
            .select_related("table__round")
            .first()
            if table_id
            else None
        )
        if seat is None:
            raise ServiceError(_("You do not sit at this table. Your pass shows the table you are called to."))
        if seat.table.status != enums.TableStatus.PLAYING or seat.table.round.status != enums.RoundStatus.RUNNING:
            raise ServiceError(_("This table is no longer in play: there is nothing to tell the organiser."))
        arrival, created = SeatArrival.objects.get_or_create(seat=seat, defaults={"player_pass": player_pass})
        if created:
            audit_by_player(
                tournament, player_pass.player_id, "sat_down", player=player_pass.player_id, table=seat.table_id
            )
            bump(tournament)
    return arrival, created


def attach_cards(request: HttpRequest, players: list[Player], actor: User | None) -> None:
    """Give each printed start card's player ``pass_link`` and ``pass_qr`` (``tokens_for_cards``)."""
    found = tokens_for_cards([player for player in players if player.start_number], actor)
    for player in players:
        token = found.get(player.pk)
        if token:
            link = request.build_absolute_uri(reverse("tournament:pass", kwargs={"token": token}))
            player.pass_link = link  # type: ignore[attr-defined]
            player.pass_qr = qr.svg(link)  # type: ignore[attr-defined]
