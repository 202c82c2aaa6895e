"""The tombola: prizes in the order they are given out, each drawn by lot among the players present.

Contract: ``tournament.writes`` (the tournament locked first, audited, the version bumped,
``ServiceError`` with nothing changed).

Decisions:

- **Who takes part**: the players checked in (withdrawn, no-show, waiting and registered but
  absent players do not; a paused player is checked in and takes part). With
  ``Tournament.tombola_skip_podium`` the players on the podium of the final ranking (place 1–3,
  shared places included) are left out ("Pokale für die ersten drei, eine Tombola für alle"):
  a draw is then refused until the tournament is finished, since the podium is not known.
- **One prize at a time**: ``draw_next`` draws the first prize (in the order given out) that
  holds no winner, so the projector shows the tombola prize by prize
  (``Tournament.tombola_on_screen``, switched on by the first draw, off and on by the organiser).
- **Checkable**: each draw stores a fresh seed and its pool, the sorted ids it was drawn among
  (``TombolaDraw``); ``draws.draw_tombola_winner(pool, seed)`` gives its winner again. The
  pool is stored rather than recomputed since who is present changes during the day.
- **Absent winners**: ``mark_absent`` (asked first: it cannot be taken back) keeps the draw,
  marks it absent and draws that prize again at once; every other prize keeps its winner, and a
  player marked absent is never drawn again (they are not in the hall). When nobody is left the
  mark is kept and the prize stays open, with the reason (saved, not refused: the absence is a
  fact).
- **One prize per player** unless ``Tournament.tombola_repeat_winners``; the settings may be
  changed during the tombola (a hall with more prizes than players allows repeats after the
  first round of prizes): draws already made keep their stored pools.
- Prizes are renamed, moved and removed only while they have no draw: a drawn prize keeps its
  name and place, which the printout and the audit log name.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import draws, enums
from tournament.errors import NeedsConfirmation, ServiceError
from tournament.models import Player, TombolaDraw, TombolaPrize, Tournament
from tournament.selectors import tombola as tombola_selectors
from tournament.writes import User, acting_user, audit, bump, lock_tournament

PRIZE_NAME_MAX = 120
PRIZES_MAX = 500


def clean_prize_name(name: str) -> str:
    """The name as shown (spaces folded), or a ``ServiceError`` saying what is wrong with it."""
    name = " ".join(str(name).split())
    if not name:
        raise ServiceError(_("A prize needs a name, e.g. “Bottle of wine”."))
    if len(name) > PRIZE_NAME_MAX:
        raise ServiceError(
            _("A prize's name has at most %(max)d characters; this one has %(count)d.")
            % {"max": PRIZE_NAME_MAX, "count": len(name)}
        )
    return name


def _prize(tournament: Tournament, prize_id: int) -> TombolaPrize:
    prize = TombolaPrize.objects.select_for_update().filter(tournament=tournament, pk=prize_id).first()
    if prize is None:
        raise ServiceError(_("This prize does not exist (any more); reload the page."))
    return prize


def _refuse_if_drawn(prize: TombolaPrize, message: str) -> None:
    if prize.draws.exists():
        raise ServiceError(message % {"prize": prize.name})


def add_prize(*, tournament: Tournament, actor: User, name: str) -> TombolaPrize:
    """Add a prize at the end of the order."""
    name = clean_prize_name(name)
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        last = TombolaPrize.objects.filter(tournament=locked).aggregate(last=Max("position"))["last"] or 0
        if last >= PRIZES_MAX:
            raise ServiceError(_("A tombola has at most %(max)d prizes.") % {"max": PRIZES_MAX})
        prize = TombolaPrize.objects.create(tournament=locked, position=last + 1, name=name)
        bump(locked)
        audit(locked, actor, "tombola_prize_added", name=name, position=prize.position)
    return prize


def rename_prize(*, tournament: Tournament, actor: User, prize_id: int, name: str) -> TombolaPrize:
    """Rename a prize that has not been drawn."""
    name = clean_prize_name(name)
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        prize = _prize(locked, prize_id)
        _refuse_if_drawn(prize, _("“%(prize)s” has been drawn; its name stays as drawn and printed."))
        was = prize.name
        if was != name:
            prize.name = name
            prize.save(update_fields=["name"])
            bump(locked)
            audit(locked, actor, "tombola_prize_renamed", was=was, now=name, position=prize.position)
    return prize


def move_prize(*, tournament: Tournament, actor: User, prize_id: int, step: int) -> TombolaPrize:
    """Move a prize one place earlier (``step=-1``) or later (``step=1``) in the order given out;
    both it and the prize it changes places with must be undrawn."""
    if step not in (-1, 1):
        raise ServiceError(_("A prize moves one place up or down."))
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        prize = _prize(locked, prize_id)
        _refuse_if_drawn(prize, _("“%(prize)s” has been drawn; it keeps its place."))
        neighbours = TombolaPrize.objects.select_for_update().filter(tournament=locked)
        other = (
            neighbours.filter(position__lt=prize.position).order_by("-position").first()
            if step < 0
            else neighbours.filter(position__gt=prize.position).order_by("position").first()
        )
        if other is None:
            first = _("“%(prize)s” is already the first prize.")
            last = _("“%(prize)s” is already the last prize.")
            raise ServiceError((first if step < 0 else last) % {"prize": prize.name})
        _refuse_if_drawn(other, _("“%(prize)s” has been drawn; it keeps its place."))
        # Positions are unique: park one on 0 (never a prize's place) while they change places.
        mine, theirs = prize.position, other.position
        prize.position = 0
        prize.save(update_fields=["position"])
        other.position = mine
        other.save(update_fields=["position"])
        prize.position = theirs
        prize.save(update_fields=["position"])
        bump(locked)
        audit(locked, actor, "tombola_prize_moved", name=prize.name, was=mine, now=theirs)
    return prize


def remove_prize(*, tournament: Tournament, actor: User, prize_id: int) -> None:
    """Remove an undrawn prize; the prizes after it move up one place."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        prize = _prize(locked, prize_id)
        _refuse_if_drawn(prize, _("“%(prize)s” has been drawn; a drawn prize cannot be removed."))
        position, name = prize.position, prize.name
        prize.delete()
        later = TombolaPrize.objects.select_for_update().filter(tournament=locked, position__gt=position)
        for after in later.order_by("position"):  # one by one, upwards: positions stay unique
            after.position -= 1
            after.save(update_fields=["position"])
        bump(locked)
        audit(locked, actor, "tombola_prize_removed", name=name, position=position)


def save_settings(*, tournament: Tournament, actor: User, skip_podium: bool, repeat_winners: bool) -> None:
    """Who may win: only players without a trophy; more than one prize per player."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        changed = []
        if locked.tombola_skip_podium != skip_podium:
            changed.append("tombola_skip_podium")
        if locked.tombola_repeat_winners != repeat_winners:
            changed.append("tombola_repeat_winners")
        if not changed:
            return
        locked.tombola_skip_podium = skip_podium
        locked.tombola_repeat_winners = repeat_winners
        locked.save(update_fields=changed)
        bump(locked)
        audit(locked, actor, "tournament_updated", fields=changed)


def show_on_screen(*, tournament: Tournament, actor: User, shown: bool) -> None:
    """Show the tombola on the projector instead of the tournament, or go back to it."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        if locked.tombola_on_screen == shown:
            return
        locked.tombola_on_screen = shown
        locked.save(update_fields=["tombola_on_screen"])
        bump(locked)
        audit(locked, actor, "tombola_shown" if shown else "tombola_hidden")


def _draw(locked: Tournament, actor: User, prize: TombolaPrize, seed: int | None, *, again: bool) -> TombolaDraw | None:
    """Draw ``prize`` among the entrants; None when nobody is left."""
    if locked.tombola_skip_podium and locked.status != enums.TournamentStatus.FINISHED:
        raise ServiceError(
            _(
                "Only players without a trophy take part, and the podium is known when the tournament is "
                "finished. Finish the tournament first, or let every player take part (tombola settings)."
            )
        )
    pool = tombola_selectors.entrants(locked).pool()
    seed = draws.new_seed() if seed is None else seed
    winner = draws.draw_tombola_winner(pool, seed)
    if winner is None:
        return None
    draw = TombolaDraw.objects.create(
        prize=prize,
        player_id=winner,
        seed=seed,
        algorithm=draws.TOMBOLA_ALGORITHM,
        pool=pool,
        drawn_by=acting_user(actor),
    )
    audit(
        locked,
        actor,
        "tombola_drawn_again" if again else "tombola_drawn",
        player=winner,
        name=prize.name,
        position=prize.position,
        seed=seed,
        count=len(pool),
    )
    return draw


def _nobody_left(tournament: Tournament, prize: TombolaPrize) -> str:
    """Why nobody can win ``prize`` and what the organiser can do."""
    if tournament.tombola_repeat_winners:
        return _(
            "Nobody is left to win “%(prize)s”: every player present is marked absent or takes no part. "
            "Check players in who are here, or give this prize another way."
        ) % {"prize": prize.name}
    return _(
        "Nobody is left to win “%(prize)s”: every player present has won a prize or is marked absent. "
        "To give a second prize to a player, allow it in the tombola settings."
    ) % {"prize": prize.name}


def draw_next(*, tournament: Tournament, actor: User, seed: int | None = None) -> TombolaDraw:
    """Draw the first prize, in the order given out, that holds no winner (and show the tombola
    on the projector). ``seed``: for tests; a fresh one otherwise."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        prizes = list(TombolaPrize.objects.select_for_update().filter(tournament=locked).order_by("position"))
        if not prizes:
            raise ServiceError(_("The tombola has no prizes yet; add them in the order they are given out."))
        held = set(
            TombolaDraw.objects.filter(prize__in=prizes, absent_at__isnull=True).values_list("prize_id", flat=True)
        )
        prize = next((prize for prize in prizes if prize.pk not in held), None)
        if prize is None:
            raise ServiceError(_("Every prize has its winner; add a prize to draw another."))
        draw = _draw(locked, actor, prize, seed, again=False)
        if draw is None:
            raise ServiceError(_nobody_left(locked, prize))
        if not locked.tombola_on_screen:
            locked.tombola_on_screen = True
            locked.save(update_fields=["tombola_on_screen"])
        bump(locked)
    return draw


@dataclass(frozen=True)
class Absence:
    """A winner marked absent: who, and the prize's new draw (None: nobody was left, ``reason``)."""

    absent: Player
    draw: TombolaDraw | None
    reason: str = ""


def mark_absent(
    *, tournament: Tournament, actor: User, prize_id: int, seed: int | None = None, confirmed: bool = False
) -> Absence:
    """The winner of ``prize_id`` is not there: mark the draw absent and draw the prize again
    among the others (every other prize keeps its winner; the absent player is never drawn
    again). When nobody is left the absence is kept and the prize stays open.

    Asked first (``NeedsConfirmation``, kind "tombola_absent") unless ``confirmed``: it cannot be
    taken back, and on stage a tap on the wrong prize's button is easily made."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        prize = _prize(locked, prize_id)
        live = (
            TombolaDraw.objects.select_for_update()
            .select_related("player")
            .filter(prize=prize, absent_at__isnull=True)
            .first()
        )
        if live is None:
            raise ServiceError(_("“%(prize)s” has no winner to mark absent; draw it first.") % {"prize": prize.name})
        if not confirmed:
            raise NeedsConfirmation(
                _(
                    "%(player)s is marked absent for “%(prize)s” and is never drawn again in this tombola; "
                    "the prize is drawn again among the others, who keep their prizes."
                )
                % {"player": live.player.name, "prize": prize.name},
                kind="tombola_absent",
            )
        live.absent_at = timezone.now()
        live.absent_by = acting_user(actor)
        live.save(update_fields=["absent_at", "absent_by"])
        audit(locked, actor, "tombola_winner_absent", player=live.player_id, name=prize.name, position=prize.position)
        draw = _draw(locked, actor, prize, seed, again=True)
        bump(locked)
        absent = Player.objects.get(pk=live.player_id)
    return Absence(absent, draw, "" if draw is not None else _nobody_left(locked, prize))
