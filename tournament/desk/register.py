"""The club's register (issue 33, item 1): clubs, the people a registration links to, merging
duplicates, and "Copy players from…" an earlier event.

Contract: ``tournament.writes``. A tournament write locks the tournament first, then its club
(``lock_club``); a write to the register alone locks the club. Every write to the register raises
``Club.register_version`` (``touch_register``): the suggestions' name index is kept per version.
Club-level actions (a club made or renamed, a merge) are audited without a tournament
(``AuditEntry.tournament`` is None) with the club's id in the detail (``club``); the register page
lists them (``selectors.register.club_log``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament import enums, folding
from tournament.desk.players import active_count, name_key
from tournament.errors import ServiceError
from tournament.models import Club, Person, Player, Tournament, person_identity
from tournament.writes import User, acting_user, audit, bump, lock_tournament

CLUB_NAME_MAX = Club._meta.get_field("name").max_length or 200
# How far a chain of merges is followed (a merge re-points the earlier ones, so chains stay short).
MERGE_CHAIN_MAX = 20


def runs_club(user: User | None, club: Club) -> bool:
    """The user is one of the club's organisers (a superuser runs every club). One query."""
    if user is None or not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    return club.organisers.filter(pk=user.pk).exists()


def lock_club(club_id: int) -> Club:
    """The club row, locked until the transaction ends (after the tournament's lock, where there is one)."""
    return Club.objects.select_for_update().get(pk=club_id)


def touch_register(club_id: int) -> None:
    """A write to the club's register: its version moves on (the suggestions' index is built again)."""
    Club.objects.filter(pk=club_id).update(register_version=F("register_version") + 1)


def _club_name(name: str) -> str:
    name = name.strip()
    if not name:
        raise ServiceError(_("The club needs a name."))
    if len(name) > CLUB_NAME_MAX:
        raise ServiceError(_("The club's name is longer than %(max)d characters.") % {"max": CLUB_NAME_MAX})
    return name


def create_club(*, actor: User, name: str) -> Club:
    """A new club run by ``actor`` (its first organiser). Audited ``club_created`` (no tournament)."""
    name = _club_name(name)
    user = acting_user(actor)
    if user is None:
        raise ServiceError(_("Log in to run a club."))
    with transaction.atomic():
        club = Club.objects.create(name=name)
        club.organisers.add(user)
        audit(None, actor, "club_created", club=club.pk, name=name)
    return club


def rename_club(*, club: Club, actor: User, name: str) -> Club:
    """The club's new name, for its organisers. Audited ``club_renamed`` (no tournament)."""
    name = _club_name(name)
    if not runs_club(actor, club):
        raise ServiceError(_("Only the club's organisers can rename it."))
    with transaction.atomic():
        locked = lock_club(club.pk)
        if locked.name != name:
            audit(None, actor, "club_renamed", club=locked.pk, name=name, old=locked.name)
            locked.name = name
            locked.save(update_fields=["name"])
    return locked


def club_for(*, actor: User, club_id: int | None, new_name: str = "") -> Club:
    """The club a tournament of ``actor`` is to belong to: one of the clubs they run (``club_id``),
    or a new one named ``new_name``; with neither, their first club, else a new club named after
    them. Refused in words: a club they do not run."""
    if new_name.strip():
        return create_club(actor=actor, name=new_name)
    user = acting_user(actor)
    if user is None:
        raise ServiceError(_("Log in to run a club."))
    if club_id is not None:
        club = Club.objects.filter(pk=club_id).first()
        if club is None or not runs_club(actor, club):
            raise ServiceError(_("That is not one of your clubs. Choose one of yours or name a new club."))
        return club
    first = Club.objects.filter(organisers=user).order_by("-created_at", "-pk").first()
    if first is not None:
        return first
    return create_club(actor=actor, name=(user.get_full_name() or user.get_username())[:CLUB_NAME_MAX])


def set_club(*, tournament: Tournament, actor: User, club_id: int | None, new_name: str = "") -> Tournament:
    """The tournament moves to one of the organiser's clubs (or a new one). Refused while a player
    of it is linked to another club's register (the people would be in two registers). Audited
    ``club_changed``."""
    club = club_for(actor=actor, club_id=club_id, new_name=new_name)
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        if locked.club_id == club.pk:
            return locked
        linked = Player.objects.filter(tournament=locked, person__isnull=False).exclude(person__club=club)
        if linked.exists():
            raise ServiceError(
                _("The players of this tournament are linked to the register of another club; it stays with that club.")
            )
        locked.club = club
        locked.save(update_fields=["club"])
        audit(locked, actor, "club_changed", club=club.pk, name=club.name)
        bump(locked)
    return locked


# --- the people a registration links to -----------------------------------------------------


def kept_person(person: Person) -> Person:
    """The person a merged duplicate points to (itself when not merged)."""
    seen = 0
    while person.merged_into_id is not None and seen < MERGE_CHAIN_MAX:
        person = Person.objects.get(pk=person.merged_into_id)
        seen += 1
    return person


def split_contact(contact: str) -> tuple[str, str]:
    """(e-mail, phone) of the desk's one contact field: an "@" makes it an e-mail address."""
    contact = contact.strip()
    return (contact, "") if "@" in contact else ("", contact)


def _new_person(club: Club, name: str, team: str, contact: str) -> Person:
    email, phone = split_contact(contact)
    person = Person(club=club, name=name, team=team, email=email, phone=phone)
    person.save()
    touch_register(club.pk)
    return person


def _fill_contact(person: Person, contact: str) -> None:
    """What the desk learned that the register lacked: an e-mail or phone where it has none."""
    email, phone = split_contact(contact)
    changed = []
    if email and not person.email:
        person.email, changed = email, [*changed, "email"]
    if phone and not person.phone:
        person.phone, changed = phone, [*changed, "phone"]
    if changed:
        person.save(update_fields=changed)
        touch_register(person.club_id)


def person_for_desk(
    tournament: Tournament, *, name: str, team: str, contact: str, person_id: int | None
) -> Person | None:
    """The person a desk registration links to, under the tournament's lock (taken by the caller):
    the one chosen from the suggestions (``person_id``: a person of the tournament's club; a merged
    one gives the person kept), else the club's person of the same folded name and team, else a new
    person, made once. None for a tournament without a club."""
    if tournament.club_id is None:
        return None
    club = lock_club(tournament.club_id)
    if person_id is not None:
        chosen = Person.objects.filter(pk=person_id, club=club).first()
        if chosen is None:
            raise ServiceError(
                _("That person is not in this club's register. Type the name again and choose a suggestion.")
            )
        chosen = kept_person(chosen)
        _fill_contact(chosen, contact)
        return chosen
    same = Person.objects.filter(club=club, identity=person_identity(name, team), merged_into__isnull=True)
    found = same.order_by("pk").first()
    if found is not None:
        _fill_contact(found, contact)
        return found
    return _new_person(club, name, team, contact)


def person_for_sign_up(
    tournament: Tournament, *, name: str, team: str, contact: str, suggested_id: int | None = None
) -> Person | None:
    """The person an online sign-up links to: an existing one only where the e-mail address matches,
    on the suggestion the player picked (``suggested_id``: a person the public suggestions may show,
    ``selectors.register.publicly_suggested``) or on name and team (folded); the public sees names
    and teams, never contact data, so nothing less can say it is them. Else a new person: marked
    ``maybe_same_as`` the picked one, for the organiser to merge ("Possible duplicates"). None
    without a club."""
    if tournament.club_id is None:
        return None
    club = lock_club(tournament.club_id)
    email, _phone = split_contact(contact)
    picked = _picked_suggestion(club, suggested_id)
    if email:
        if picked is not None and picked.email and picked.email.casefold() == email.casefold():
            return picked
        same = Person.objects.filter(
            club=club, identity=person_identity(name, team), merged_into__isnull=True, email__iexact=email
        )
        found = same.order_by("pk").first()
        if found is not None:
            return found
    person = _new_person(club, name, team, contact)
    if picked is not None:
        person.maybe_same_as = picked
        person.save(update_fields=["maybe_same_as"])
    return person


def _picked_suggestion(club: Club, suggested_id: int | None) -> Person | None:
    """The suggestion a sign-up picked, if it is one the public suggestions show (else ignored: a
    forged number links nobody and marks nothing)."""
    if suggested_id is None:
        return None
    from tournament.selectors.register import publicly_suggested  # the selectors import the desk's helpers

    return publicly_suggested(club).filter(pk=suggested_id).first()


def people_for_import(tournament: Tournament, rows: list[tuple[str, str, str]]) -> list[Person | None]:
    """The people the rows of a CSV import (name, team, contact) link to, in the rows' order, as the
    desk links one registration without a suggestion picked: the club's unmerged person of the same
    folded name and team, else a new person, made once (two rows of one identity share it); the
    contact fills what the register lacks. Under the tournament's lock (the caller's); in bulk: a
    fixed number of queries whatever the rows. All None for a tournament without a club."""
    if tournament.club_id is None or not rows:
        return [None] * len(rows)
    club = lock_club(tournament.club_id)
    identities = [person_identity(name, team) for name, team, _contact in rows]
    found: dict[str, Person] = {}
    same = Person.objects.filter(club=club, identity__in=set(identities), merged_into__isnull=True).order_by("-pk")
    for person in same:
        found[person.identity] = person  # the oldest of an identity wins (read last)
    filled = _fill_contacts(found, identities, rows)
    new: dict[str, Person] = {}
    for identity, (name, team, contact) in zip(identities, rows, strict=True):
        if identity not in found and identity not in new:
            email, phone = split_contact(contact)
            new[identity] = Person(
                club=club,
                name=name,
                team=team,
                email=email,
                phone=phone,
                folded=folding.search_text(name, team),  # bulk_create does not call save()
                identity=identity,
            )
    Person.objects.bulk_create(new.values())
    if new or filled:
        touch_register(club.pk)
    return [found.get(identity) or new[identity] for identity in identities]


def _fill_contacts(found: dict[str, Person], identities: list[str], rows: list[tuple[str, str, str]]) -> bool:
    """The import's contacts fill the e-mail or phone the people found lack (one bulk update)."""
    changed: dict[int, Person] = {}
    for identity, (_name, _team, contact) in zip(identities, rows, strict=True):
        person = found.get(identity)
        if person is None or not contact:
            continue
        email, phone = split_contact(contact)
        if email and not person.email:
            person.email = email
            changed[person.pk] = person
        if phone and not person.phone:
            person.phone = phone
            changed[person.pk] = person
    if changed:
        Person.objects.bulk_update(changed.values(), ["email", "phone"])
    return bool(changed)


# --- merging duplicates ---------------------------------------------------------------------


@dataclass(frozen=True)
class Merged:
    kept: Person
    merged: Person
    players: int


def _merge_refusal(club: Club, duplicate: Person | None, keep: Person | None) -> str:
    """Why ``duplicate`` cannot be merged into ``keep`` ("" when it can)."""
    if duplicate is None or duplicate.club_id != club.pk:
        return _("That person is not in this club's register.")
    if keep is None or keep.club_id != club.pk:
        return _("The person to keep is not in this club's register. Choose one from the list.")
    if duplicate.pk == keep.pk:
        return _("A person cannot be merged into themselves. Choose the other entry to keep.")
    if duplicate.merged_into_id is not None:
        return _("%(name)s was already merged into another entry.") % {"name": duplicate.name}
    if keep.merged_into_id is not None:
        return _("%(name)s was merged into another entry; choose the entry that was kept.") % {"name": keep.name}
    return ""


def _both_played(duplicate: Person, keep: Person) -> str:
    """The name of an event both played in ("" for none): then they are two people."""
    shared = (
        Tournament.objects.filter(players__person=duplicate)
        .filter(pk__in=Player.objects.filter(person=keep).values("tournament_id"))
        .values_list("name", flat=True)
        .first()
    )
    return shared or ""


def merge_persons(*, club: Club, actor: User, duplicate_id: int, keep_id: int) -> Merged:
    """Merge a duplicate entry of the register into the person kept: the duplicate's players (its
    history) become the kept person's, the entries merged into the duplicate before now point to the
    kept person, the kept person takes the contact and member number it lacks, and the duplicate is
    marked ``merged_into`` (never deleted). Audited ``person_merged`` (no tournament).

    Refused in words, nothing saved: a person of another club, the same entry, an entry already
    merged, two people who played in the same event, an actor who does not run the club."""
    if not runs_club(actor, club):
        raise ServiceError(_("Only the club's organisers can merge its register."))
    with transaction.atomic():
        locked = lock_club(club.pk)
        people = {p.pk: p for p in Person.objects.select_for_update().filter(pk__in=[duplicate_id, keep_id])}
        duplicate, keep = people.get(duplicate_id), people.get(keep_id)
        problem = _merge_refusal(locked, duplicate, keep)
        if problem:
            raise ServiceError(problem)
        assert duplicate is not None and keep is not None
        shared = _both_played(duplicate, keep)
        if shared:
            raise ServiceError(
                _("%(a)s and %(b)s both played in “%(event)s”: they are two people, not one.")
                % {"a": duplicate.name, "b": keep.name, "event": shared}
            )
        moved = Player.objects.filter(person=duplicate).update(person=keep)
        Person.objects.filter(merged_into=duplicate).update(merged_into=keep)
        # "Maybe the same as" the duplicate now means the person kept; the kept one's own mark is settled.
        Person.objects.filter(maybe_same_as=duplicate).exclude(pk=keep.pk).update(maybe_same_as=keep)
        Person.objects.filter(pk=keep.pk, maybe_same_as__in=[keep.pk, duplicate.pk]).update(maybe_same_as=None)
        _take_over(keep, duplicate)
        audit(
            None,
            actor,
            "person_merged",
            club=locked.pk,
            kept=keep.pk,
            kept_name=keep.name,
            merged=duplicate.pk,
            merged_name=duplicate.name,
            players=moved,
        )
        touch_register(locked.pk)
    return Merged(kept=keep, merged=duplicate, players=moved)


def _take_over(keep: Person, duplicate: Person) -> None:
    """The duplicate is marked merged; the kept person takes the e-mail, phone and member number it lacks."""
    number = duplicate.member_number
    duplicate.merged_into = keep
    duplicate.member_number = ""  # the number is the kept person's now (unique per club)
    duplicate.save(update_fields=["merged_into", "member_number"])
    changed = []
    for name, value in (("email", duplicate.email), ("phone", duplicate.phone), ("member_number", number)):
        if value and not getattr(keep, name):
            setattr(keep, name, value)
            changed.append(name)
    if changed:
        keep.save(update_fields=changed)


# --- editing a person, settling a possible duplicate --------------------------------------------

PERSON_NAME_MAX = Person._meta.get_field("name").max_length or 120
TEAM_MAX = Person._meta.get_field("team").max_length or 120
MEMBER_NUMBER_MAX = Person._meta.get_field("member_number").max_length or 40
CONTACT_MAX = Person._meta.get_field("email").max_length or 200
PHONE_CHARACTERS = set("0123456789 +-/().")


@dataclass(frozen=True)
class PersonFields:
    """What the organiser may edit of a register entry."""

    name: str
    team: str
    member_number: str
    email: str
    phone: str

    def cleaned(self) -> PersonFields:
        return PersonFields(
            *(value.strip() for value in (self.name, self.team, self.member_number, self.email, self.phone))
        )


def person_field_problems(fields: PersonFields) -> dict[str, str]:
    """Why each field of an edited entry cannot be saved (field name to reason; empty when it can)."""
    problems: dict[str, str] = {}
    if not fields.name:
        problems["name"] = _("The name is missing.")
    for field, limit in (
        ("name", PERSON_NAME_MAX),
        ("team", TEAM_MAX),
        ("member_number", MEMBER_NUMBER_MAX),
        ("email", CONTACT_MAX),
        ("phone", CONTACT_MAX),
    ):
        if len(getattr(fields, field)) > limit:
            problems[field] = _("At most %(max)d characters.") % {"max": limit}
    if fields.email and "email" not in problems:
        try:
            validate_email(fields.email)
        except ValidationError:
            problems["email"] = _("This e-mail address is not valid (name@example.org).")
    if fields.phone and "phone" not in problems and not set(fields.phone) <= PHONE_CHARACTERS:
        problems["phone"] = _("A phone number has digits, spaces and + - / ( ) only.")
    return problems


def edit_person(*, club: Club, actor: User, person_id: int, fields: PersonFields) -> Person:
    """The organiser corrects a register entry: name, team, member number (unique in the club when
    given), e-mail, phone. The tournaments already played keep their players' names as registered
    (``Player.name``): the register changes, history does not. Audited ``person_edited`` (no
    tournament; the fields changed, not their contact values). Refused in words, nothing saved: an
    entry of another club or merged into another, a bad field, a member number another person has."""
    if not runs_club(actor, club):
        raise ServiceError(_("Only the club's organisers can edit its register."))
    fields = fields.cleaned()
    problems = person_field_problems(fields)
    if problems:
        raise ServiceError(next(iter(problems.values())))
    with transaction.atomic():
        locked = lock_club(club.pk)
        person = Person.objects.select_for_update().filter(pk=person_id, club=locked).first()
        if person is None:
            raise ServiceError(_("That person is not in this club's register."))
        if person.merged_into_id is not None:
            raise ServiceError(_("This entry was merged into another; edit the entry that was kept."))
        _refuse_taken_number(locked, person, fields.member_number)
        changed = [name for name in PersonFields.__dataclass_fields__ if getattr(person, name) != getattr(fields, name)]
        if not changed:
            return person
        old_name = person.name
        for name in changed:
            setattr(person, name, getattr(fields, name))
        person.save(update_fields=changed)
        audit(
            None,
            actor,
            "person_edited",
            club=locked.pk,
            person=person.pk,
            name=person.name,
            old_name=old_name,
            fields=changed,
        )
        touch_register(locked.pk)
    return person


def _refuse_taken_number(club: Club, person: Person, number: str) -> None:
    if not number:
        return
    holder = Person.objects.filter(club=club, member_number__iexact=number).exclude(pk=person.pk).first()
    if holder is not None:
        raise ServiceError(
            _("Member number %(number)s belongs to %(name)s already. Give another number, or merge the two entries.")
            % {"number": number, "name": holder.name}
        )


def dismiss_duplicate(*, club: Club, actor: User, person_id: int) -> Person:
    """ "Not the same person": the sign-up's mark ``maybe_same_as`` is taken off the entry, so it no
    longer shows under "Possible duplicates". Audited ``duplicate_dismissed`` (no tournament)."""
    if not runs_club(actor, club):
        raise ServiceError(_("Only the club's organisers can edit its register."))
    with transaction.atomic():
        locked = lock_club(club.pk)
        person = Person.objects.select_for_update().filter(pk=person_id, club=locked).first()
        if person is None:
            raise ServiceError(_("That person is not in this club's register."))
        if person.maybe_same_as_id is None:
            return person
        other = Person.objects.filter(pk=person.maybe_same_as_id).values_list("name", flat=True).first() or ""
        person.maybe_same_as = None
        person.save(update_fields=["maybe_same_as"])
        audit(None, actor, "duplicate_dismissed", club=locked.pk, person=person.pk, name=person.name, other=other)
        touch_register(locked.pk)
    return person


# --- the club's organisers ------------------------------------------------------------------------


def add_organiser(*, club: Club, actor: User, username: str) -> User:
    """Another user (an existing account, by user name) runs the club too. Audited ``organiser_added``
    (no tournament). Refused in words: no such account, already an organiser, an actor who does not run it."""
    if not runs_club(actor, club):
        raise ServiceError(_("Only the club's organisers can change who runs it."))
    username = username.strip()
    if not username:
        raise ServiceError(_("Type the user name of an existing account."))
    user_model = get_user_model()
    with transaction.atomic():
        locked = lock_club(club.pk)
        user = user_model._default_manager.filter(**{user_model.USERNAME_FIELD: username}).first()
        if user is None or not user.is_active:
            raise ServiceError(
                _(
                    "There is no account with the user name “%(name)s”. Check the spelling, or ask them to get an"
                    " account first."
                )
                % {"name": username}
            )
        if locked.organisers.filter(pk=user.pk).exists():
            raise ServiceError(_("%(name)s already runs this club.") % {"name": user.get_username()})
        locked.organisers.add(user)
        audit(None, actor, "organiser_added", club=locked.pk, user=user.get_username())
    return user


def remove_organiser(*, club: Club, actor: User, user_id: int) -> None:
    """A user no longer runs the club. Never the last organiser (the club would be nobody's).
    Audited ``organiser_removed`` (no tournament)."""
    if not runs_club(actor, club):
        raise ServiceError(_("Only the club's organisers can change who runs it."))
    with transaction.atomic():
        locked = lock_club(club.pk)
        organisers = list(locked.organisers.order_by("pk"))
        user = next((organiser for organiser in organisers if organiser.pk == user_id), None)
        if user is None:
            raise ServiceError(_("That user does not run this club."))
        if len(organisers) == 1:
            raise ServiceError(
                _("%(name)s is the club's only organiser: add another organiser first, then remove this one.")
                % {"name": user.get_username()}
            )
        locked.organisers.remove(user)
        audit(None, actor, "organiser_removed", club=locked.pk, user=user.get_username())


# --- copying the players of an earlier event --------------------------------------------------


def copy_players(*, tournament: Tournament, actor: User, source_id: int) -> int:
    """Register the players of an earlier tournament of the same club (not withdrawn) as new players
    of ``tournament``, each linked to the same person (the source's unlinked players are linked to
    the register first, so their history follows), without start numbers, check-in or fees; past
    the capacity on the waiting list. One transaction, audited ``players_copied``. Refused in words:
    the tournament already has players, has no club, or the source is not an earlier event of its club."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        source = Tournament.objects.filter(pk=source_id).first()
        _refuse_copy(locked, source)
        assert source is not None
        people = _people_of(locked, source)
        free = max(locked.capacity - active_count(locked), 0)
        waiting = enums.PlayerStatus.WAITING
        new = [
            Player(
                tournament=locked,
                name=player.name,
                club=player.club,
                contact=player.contact,
                status=enums.PlayerStatus.REGISTERED if index < free else waiting,
                name_key=name_key(player.name),
                folded=folding.search_text(player.name, player.club),
                person=person,
            )
            for index, (player, person) in enumerate(people)
        ]
        Player.objects.bulk_create(new)
        audit(locked, actor, "players_copied", source=source.pk, source_name=source.name, count=len(new))
        bump(locked)
    return len(new)


def _refuse_copy(tournament: Tournament, source: Tournament | None) -> None:
    if tournament.players.exists():
        raise ServiceError(_("This tournament already has players: players are copied only into an empty list."))
    if tournament.club_id is None:
        raise ServiceError(_("This tournament belongs to no club yet: choose its club in the settings first."))
    if source is None or source.club_id != tournament.club_id or source.pk == tournament.pk:
        raise ServiceError(_("Choose an earlier tournament of this tournament's club."))


def _people_of(tournament: Tournament, source: Tournament) -> list[tuple[Player, Person]]:
    """The source's players to copy (not withdrawn, in order of registration), each with their person
    (made or found where the player had none: the source's row is linked too); each person once."""
    players = (
        Player.objects.filter(tournament=source)
        .exclude(status=enums.PlayerStatus.WITHDRAWN)
        .select_related("person")
        .order_by("registered_at", "pk")
    )
    kept: dict[int, tuple[Player, Person]] = {}
    for player in players:
        person = player.person
        if person is None:
            person = person_for_desk(tournament, name=player.name, team=player.club, contact="", person_id=None)
            assert person is not None  # the tournament has a club
            Player.objects.filter(pk=player.pk).update(person=person)
        else:
            person = kept_person(person)
        kept.setdefault(person.pk, (player, person))
    return list(kept.values())


def copy_sources_refusal(tournament: Tournament) -> str:
    """Why "Copy players from…" is not offered ("" when it is)."""
    if tournament.club_id is None:
        return _("This tournament belongs to no club yet: choose its club in the settings first.")
    count = tournament.players.count()
    if count:
        return ngettext(
            "This tournament already has %(count)d player: players are copied only into an empty list.",
            "This tournament already has %(count)d players: players are copied only into an empty list.",
            count,
        ) % {"count": count}
    return ""
