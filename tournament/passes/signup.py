"""Sign-up before the day (issue 32, item 2): the public sign-up page's write, the withdrawal with
the pass, what the pass says about the player's place, and the confirmation e-mail.

There is one registration path: ``desk.registration.register_player(online=True)`` (capacity, the
waiting list, the windows, the duplicate check); the withdrawal is the desk's
``desk.checkin.withdraw_player`` (the waiting list moves up). Both are audited as the player
(``writes.PassHolder``).
"""

from __future__ import annotations

import logging
import smtplib
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from tournament import enums
from tournament.desk import checkin, registration
from tournament.desk.players import provisional, waiting_place
from tournament.errors import ServiceError
from tournament.models import AuditEntry, Player, PlayerPass, Tournament
from tournament.passes.services import _new_pass, replaced_message
from tournament.writes import PassHolder, lock_tournament

logger = logging.getLogger(__name__)

# What a contact without "@" must hold to be a phone number: digits and the usual separators.
PHONE_CHARACTERS = set("0123456789 +-/().")
PHONE_DIGITS_MIN = 6


def contact_problem(contact: str) -> str:
    """Why ``contact`` is neither an e-mail address nor a phone number ("" when it is one)."""
    contact = contact.strip()
    if not contact:
        return _("Give an e-mail address or a phone number, so the organiser can reach you.")
    if "@" in contact:
        try:
            validate_email(contact)
        except Exception:
            return _("This e-mail address is not valid.")
        return ""
    digits = sum(character.isdigit() for character in contact)
    if set(contact) <= PHONE_CHARACTERS and digits >= PHONE_DIGITS_MIN:
        return ""
    return _("Give an e-mail address (name@example.org) or a phone number (at least 6 digits).")


def is_email(contact: str) -> bool:
    return "@" in contact and not contact_problem(contact)


@dataclass(frozen=True)
class SignedUp:
    player: Player
    token: str
    waiting_place: int | None


def sign_up(
    *,
    tournament: Tournament,
    name: str,
    club: str,
    contact: str,
    rules_accepted: bool,
    suggested_id: int | None = None,
) -> SignedUp:
    """A player signs up on the public page: registered (or on the waiting list) through the desk's
    ``register_player(online=True)``, and given a pass in the same transaction. Refused with
    nothing saved: the rules not accepted, a contact that is neither e-mail nor phone, and every
    refusal of ``register_player`` (sign-up off, window closed, duplicate, bad name). ``suggested_id``:
    the register's suggestion the player picked (linked only where the e-mail matches it, see
    ``desk.register.person_for_sign_up``)."""
    if not rules_accepted:
        raise ServiceError(_("To sign up, accept the tournament's rules (tick the box)."))
    problem = contact_problem(contact)
    if problem:
        raise ServiceError(problem)
    with transaction.atomic():
        done = registration.register_player(
            tournament=tournament,
            actor=PassHolder(),
            name=name,
            club=club,
            contact=contact,
            confirm_same_name=True,
            online=True,
            suggested_id=suggested_id,
        )
        new, token = _new_pass(done.player.pk, None)
        new.save()
        locked = Tournament.objects.get(pk=tournament.pk)
        place = waiting_place(locked, done.player)
    return SignedUp(player=done.player, token=token, waiting_place=place)


def _live_pass(pass_id: int) -> PlayerPass:
    """The pass ``pass_id`` under the tournament's lock (taken here), or the "replaced" refusal."""
    holder = PlayerPass.objects.filter(pk=pass_id).values_list("player__tournament_id", flat=True).first()
    if holder is None:
        raise ServiceError(replaced_message())
    lock_tournament(holder)
    player_pass = PlayerPass.objects.select_related("player__tournament").filter(pk=pass_id).first()
    if player_pass is None or player_pass.revoked_at is not None:
        raise ServiceError(replaced_message())
    return player_pass


def withdraw_with_pass(*, pass_id: int, confirmed: bool) -> Player:
    """ "Withdraw from the tournament" on the pass page: the desk's ``withdraw_player`` for the pass's
    own player only (a revoked pass is refused), audited as the player; the waiting list moves up.
    Unconfirmed: ``NeedsConfirmation`` with the desk's words of what it means."""
    with transaction.atomic():
        player_pass = _live_pass(pass_id)
        player = player_pass.player
        if player.tournament.status == enums.TournamentStatus.FINISHED:
            raise ServiceError(_("The tournament is finished: there is nothing to withdraw from."))
        return checkin.withdraw_player(
            tournament=player.tournament,
            actor=PassHolder(player.pk),
            player_id=player.pk,
            confirmed=confirmed,
        )


# --- what the pass says ---------------------------------------------------------------------

PLACE_CHANGES = ("provisional_place_lost", "place_taken_by_payment")


@dataclass(frozen=True)
class SignupStatus:
    """The pass page's lines about the player's place (``templates/passes/_signup_status.html``)."""

    status: str
    waiting_place: int | None
    provisional: bool
    fixed: bool
    fee: Decimal
    place_change: str
    can_withdraw: bool
    announcement: str
    rules_text: str
    rules_url: str


def status(player: Player) -> SignupStatus:
    """Two queries at most whatever the field's size: the waiting list's order (only for a waiting
    player) and the player's latest change of place by payment."""
    tournament = player.tournament
    change = (
        AuditEntry.objects.filter(tournament=tournament, player=player, action__in=PLACE_CHANGES)
        .order_by("-pk")
        .values_list("action", flat=True)
        .first()
        if tournament.fee_fixes_place
        else None
    )
    return SignupStatus(
        status=player.status,
        waiting_place=waiting_place(tournament, player),
        provisional=provisional(tournament, player),
        fixed=bool(tournament.fee_fixes_place and player.fee_paid_at and player.status in _HOLDING),
        fee=tournament.entry_fee,
        place_change=change or "",
        can_withdraw=player.status in _CAN_WITHDRAW and tournament.status != enums.TournamentStatus.FINISHED,
        announcement=tournament.announcement,
        rules_text=tournament.rules_text,
        rules_url=tournament.rules_url,
    )


_HOLDING = (enums.PlayerStatus.REGISTERED, enums.PlayerStatus.CHECKED_IN)
_CAN_WITHDRAW = (enums.PlayerStatus.REGISTERED, enums.PlayerStatus.WAITING, enums.PlayerStatus.CHECKED_IN)


# --- the confirmation e-mail ----------------------------------------------------------------


def mail_configured() -> bool:
    """The site sends mail when ``EMAIL_HOST`` is set (``config.settings``, from the environment)."""
    return bool(getattr(settings, "EMAIL_HOST", ""))


def mail_language(tournament: Tournament) -> str:
    """The tournament's language (the projector's, where the organiser chose one), else the page's."""
    return tournament.display_language or translation.get_language() or settings.LANGUAGE_CODE


def send_confirmation(*, player: Player, link: str, waiting: int | None) -> bool:
    """Send the confirmation with the pass's link to the player's e-mail address, in the
    tournament's language. False when it could not be sent (logged; the page says so)."""
    tournament = player.tournament
    with translation.override(mail_language(tournament)):
        context = {"player": player, "tournament": tournament, "link": link, "waiting": waiting}
        subject = _("Your sign-up: %(name)s") % {"name": tournament.name}
        body = render_to_string("passes/signup_mail.txt", context)
    try:
        send_mail(subject, body, None, [player.contact], fail_silently=False)
    except (smtplib.SMTPException, OSError):
        logger.exception("The sign-up confirmation to player %s could not be sent", player.pk)
        return False
    return True
