"""The tournament's data: who plays, where, in which round, who advances.

Writes go through services (``tournament.desk``, ``tournament.play``, each
format's ``services``); reads used by views through ``tournament.selectors``.
Models carry constraints that hold even when two desk tablets write at the
same moment (unique start numbers, one live check-in per player).
"""

from __future__ import annotations

import functools
import secrets
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import translation
from django.utils.functional import cached_property
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from games.rules.uno import STANDARD_SCORING
from tournament import enums, folding, naming
from tournament.season import series_rules


def default_scoring_table() -> dict[str, int]:
    return dict(STANDARD_SCORING)


# Characters of a public key: ``secrets.token_urlsafe(12)`` gives 16 of these (96 random bits).
PUBLIC_KEY_LENGTH = 16


def new_public_key() -> str:
    """An unguessable token for a tournament's public link (``/p/<key>/``): 16 URL-safe
    characters, never all digits, so it cannot be taken for a tournament's number."""
    while True:
        key = secrets.token_urlsafe(12)
        if not key.isdecimal():
            return key


def display_language_choices() -> list[tuple[str, Any]]:
    """The projector's language (``Tournament.display_language``): one of the site's
    languages, or "" for the language of each screen's browser. A callable, so the
    migrations do not copy the site's languages."""
    return [("", _("each screen's browser language")), *settings.LANGUAGES]


class FormatSetting(property):
    """One setting of one format, read and written as an attribute of ``Tournament``
    (``tournament.wins_needed``) and stored under its name in ``Tournament.format_settings``.

    A format declares its settings in ``tournament/formats/<slug>/settings.py`` (a Django form:
    labels, help texts, validators, choices, and each default as the field's ``initial``); the
    format registry installs one of these on ``Tournament`` per declared setting when it is
    imported (``registry.install_settings``, also run by the app's ``ready``). Reading gives the
    stored value or the declared default; writing stores the value (a new dict, so copies of an
    instance never share one). A subclass of ``property``, so ``Tournament(wins_needed=3)`` and
    ``Tournament.objects.create(wins_needed=3)`` take it like a field, and
    ``save(update_fields=["wins_needed"])`` saves ``format_settings`` (``Tournament.save``).

    Not a column: QuerySet ``filter``, ``update`` and ``values`` cannot name it; set the
    attribute and save instead. Values are checked against the format's form by
    ``registry.validate_format_settings`` (the settings page, ``Tournament.clean``, a restore).
    """

    def __init__(self, name: str, default: Any) -> None:
        self.name = name
        self.default = default
        super().__init__(self._read, self._write, doc=f"The format setting {name!r} (see FormatSetting).")

    def _read(self, tournament: Tournament) -> Any:
        return tournament.format_settings.get(self.name, self.default)

    def _write(self, tournament: Tournament, value: Any) -> None:
        tournament.format_settings = {**tournament.format_settings, self.name: value}


class Club(models.Model):
    """The club that runs tournaments (issue 33, item 1): its organisers and its register of people
    (``Person``). An organiser may run several clubs; a tournament belongs to one (``Tournament.club``,
    empty for tournaments made before clubs, or when no owner was known)."""

    name = models.CharField(_("name"), max_length=200)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="clubs", blank=True, verbose_name=_("organisers")
    )
    # Raised by every write to the register (``desk.register``): the suggestions' name index is kept
    # per club and register version (``selectors.register.person_index``), as the desk's per tournament version.
    register_version = models.PositiveBigIntegerField(default=1, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    """One event with its format and every setting the rules leave open."""

    name = models.CharField(_("name"), max_length=200)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    game = models.CharField(_("game"), max_length=20, choices=enums.Game.choices)
    format = models.CharField(_("format"), max_length=20, choices=enums.Format.choices)
    status = models.CharField(
        _("status"),
        max_length=20,
        choices=enums.TournamentStatus.choices,
        default=enums.TournamentStatus.REGISTRATION,
    )
    capacity = models.PositiveIntegerField(
        _("capacity"), default=50, validators=[MinValueValidator(3), MaxValueValidator(5000)]
    )
    entry_fee = models.DecimalField(
        _("entry fee (€)"),
        max_digits=8,
        decimal_places=2,
        default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0"))],
    )

    # Sign-up before the day (issue 32, item 2: ``passes.signup``): the public sign-up page, the
    # organiser's rules and announcements shown there and on the pass, and the fee that fixes a place.
    online_signup = models.BooleanField(
        _("online sign-up"),
        default=False,
        help_text=_(
            "Players sign up themselves on a public page (linked from the phone page) while a registration "
            "window is open, and get their pass at once."
        ),
    )
    rules_text = models.TextField(
        _("rules text"),
        blank=True,
        default="",
        help_text=_("Shown at the online sign-up, where players accept the tournament's rules."),
    )
    rules_url = models.URLField(
        _("rules: link"), blank=True, default="", help_text=_("Optional: where the full rules can be read.")
    )
    announcement = models.TextField(
        _("announcement for players"),
        blank=True,
        default="",
        help_text=_("Rule changes and news: shown at the online sign-up and on every player's pass."),
    )
    fee_fixes_place = models.BooleanField(
        _("a place is fixed only once the fee is paid"),
        default=False,
        help_text=_(
            "An unpaid online sign-up holds a provisional place. When the tournament is full, a player who has "
            "paid takes the place of the latest unpaid online sign-up, who moves to the top of the waiting list."
        ),
    )

    # Table settings (all formats).
    table_size = models.PositiveSmallIntegerField(
        _("preferred table size"), default=3, validators=[MinValueValidator(2), MaxValueValidator(8)]
    )
    table_size_max = models.PositiveSmallIntegerField(
        _("largest table size"), default=4, validators=[MinValueValidator(2), MaxValueValidator(8)]
    )
    keep_clubs_apart = models.BooleanField(
        _("keep players of one club apart"),
        default=False,
        help_text=_("Knockout and life bands: at the drawn first round's tables. Points: in every round."),
    )
    auto_advance = models.BooleanField(_("generate the next round automatically"), default=False)
    confirm_results = models.BooleanField(
        _("a second person confirms each table's result"),
        default=False,
        help_text=_(
            "A decided table counts only after another referee or the organiser confirms it on their own device."
        ),
    )

    # Players record their own table (issue 32, item 4: ``passes.table_entry``): referees only by default.
    table_entry = models.CharField(
        _("who records the games at a table"),
        max_length=10,
        choices=enums.TableEntry.choices,
        default=enums.TableEntry.REFEREES,
        help_text=_(
            "With “Players at the table” a seated player enters a game on their pass and another player of the "
            "table confirms it on their own phone before it counts; a disagreement calls a referee. Referees and "
            "the organiser can always enter, confirm, reject and correct."
        ),
    )

    # Each format's own settings (knockout's wins_needed, life bands' chips_per_table, ...), by
    # name: declared in ``formats/<slug>/settings.py`` and read and written as attributes
    # (``tournament.wins_needed``) through the ``FormatSetting`` descriptors the format registry
    # installs. A format with settings of its own adds no column here.
    format_settings = models.JSONField(_("format settings"), default=dict, blank=True)

    # Card scoring for every UNO format.
    scoring_table = models.JSONField(_("card scoring table"), default=default_scoring_table)

    # The expected plan of the day (``tournament.day_plan``): when play starts, what a game takes.
    start_time = models.TimeField(
        _("start of play"),
        null=True,
        blank=True,
        help_text=_(
            "When the first round starts on the tournament's date (for example 10:00). "
            "The expected plan gives its times from it."
        ),
    )
    minutes_between_rounds = models.PositiveSmallIntegerField(
        _("minutes between rounds"),
        default=5,
        validators=[MaxValueValidator(240)],
        help_text=_("The break the expected plan leaves between one round and the next."),
    )
    game_minutes_preferred = models.PositiveSmallIntegerField(
        _("minutes per game at a table of the preferred size"),
        default=6,
        validators=[MinValueValidator(1), MaxValueValidator(120)],
        help_text=_(
            "A typical game, for the expected plan. A table plays until it is decided: a race to the games "
            "it needs (knockout), until enough players lost their chips (life bands; after sharp play "
            "begins a game takes half as long, one half instead of two), or its games of the round "
            "(points). Once games are recorded, the plan follows their measured median length."
        ),
    )
    game_minutes_largest = models.PositiveSmallIntegerField(
        _("minutes per game at a table of the largest size"),
        default=8,
        validators=[MinValueValidator(1), MaxValueValidator(120)],
    )

    display_rotation_seconds = models.PositiveSmallIntegerField(
        _("projector: seconds per view"), default=15, validators=[MinValueValidator(3)]
    )
    # The hall reads one language; a single screen can still ask for another with ``?lang=``.
    display_language = models.CharField(
        _("projector: language"),
        max_length=10,
        blank=True,
        default="",
        choices=display_language_choices,
        help_text=_(
            "The language of the projector in the hall. One screen can show another language: "
            "add ?lang=de, ?lang=it or ?lang=en to its address."
        ),
    )

    # The tombola (``desk.tombola``): who may win, and whether the projector shows it now.
    tombola_skip_podium = models.BooleanField(
        _("tombola: only players without a trophy"),
        default=False,
        help_text=_("The players on the podium of the final ranking take no part in the tombola."),
    )
    tombola_repeat_winners = models.BooleanField(
        _("tombola: a player may win more than one prize"),
        default=False,
        help_text=_("When there are more prizes than players present."),
    )
    tombola_on_screen = models.BooleanField(_("tombola on the projector"), default=False)

    # Self check-in (issue 32, item 3: ``passes.services.self_check_in``): off by default.
    self_check_in = models.BooleanField(
        _("players check themselves in"),
        default=False,
        help_text=_(
            "While the desk checks in, players tap “I'm here” on their pass or at the entrance page "
            "(its poster is in the print pack). Self-declared checklist items are ticked by the player; "
            "a player with items the desk must see goes on the desk's “arrived, needs the desk” list."
        ),
    )
    check_in_by_name = models.BooleanField(
        _("check-in by name at the entrance"),
        default=False,
        help_text=_(
            "At the entrance page a player who types their name or start number is checked in without "
            "their pass. Anyone there could then check in anyone: only for events where the desk sees the door."
        ),
    )

    # The public pages (projector, phone page, JSON) live under ``/p/<public_key>/``; the old
    # ``/p/<id>/`` addresses redirect there only while the tournament is listed.
    public_key = models.CharField(_("public key"), max_length=32, unique=True, default=new_public_key, editable=False)
    listed = models.BooleanField(
        _("listed"),
        default=True,
        help_text=_(
            "Listed: anyone who knows the tournament's number can open its public pages. "
            "Unlisted: only the public link (QR code) opens them."
        ),
    )

    # Bumped by every write; public pages derive their ETag from it.
    version = models.PositiveBigIntegerField(default=1, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The club that runs it (issue 33): its register is where the players are linked. Null for old data.
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments", verbose_name=_("club")
    )

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(table_size_max__gte=models.F("table_size")),
                name="tournament_table_size_max_gte_preferred",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%Y-%m-%d})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save; a format setting named in ``update_fields`` saves ``format_settings``."""
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            settings_ = self.format_setting_names()
            names = ["format_settings" if name in settings_ else name for name in update_fields]
            kwargs["update_fields"] = list(dict.fromkeys(names))
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("tournament:desk", args=[self.pk])

    @property
    def players_enter(self) -> bool:
        """Players record their own table here (``table_entry``: players, or referees and players)."""
        return self.table_entry in (enums.TableEntry.PLAYERS, enums.TableEntry.BOTH)

    def clean(self) -> None:
        """The stored format settings hold only declared names with valid values (ValidationError)."""
        from tournament.formats.registry import validate_format_settings  # (the registry imports the models)

        try:
            self.format_settings = validate_format_settings(self.format_settings)
        except ValidationError as error:
            # Said by name, not on fields: the names are no fields (a model form could not place them).
            if not hasattr(error, "error_dict"):
                raise
            raise ValidationError(
                [f"{name}: {' '.join(messages)}" for name, messages in error.message_dict.items()]
            ) from None

    @classmethod
    def format_setting_names(cls) -> frozenset[str]:
        """The names of the format settings installed on the model (``FormatSetting``)."""
        return frozenset(name for name, value in vars(cls).items() if isinstance(value, FormatSetting))

    @property
    def play_started(self) -> bool:
        return self.status in {enums.TournamentStatus.RUNNING, enums.TournamentStatus.FINISHED}

    @cached_property
    def keeps_equipment(self) -> bool:
        """The desk keeps equipment (own decks) to hand back at the end (one query)."""
        return self.checklist_items.filter(returnable=True).exists()


class RegistrationWindow(models.Model):
    """A time span in which the desk takes registrations (several per event)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registration_windows")
    opens_at = models.DateTimeField(_("opens"))
    closes_at = models.DateTimeField(_("closes"))

    class Meta:
        verbose_name = _("registration window")
        verbose_name_plural = _("registration windows")
        ordering = ["opens_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(closes_at__gt=models.F("opens_at")), name="registration_window_closes_after_opening"
            )
        ]

    def __str__(self) -> str:
        return f"{self.opens_at:%Y-%m-%d %H:%M} – {self.closes_at:%H:%M}"


# The checklist labels the site proposes (every format's ``default_checklist`` and the demo's):
# a stored label that is one of them, in any of the site's languages, is shown in the reader's
# language (the demo creates them in English, from a command without a reader; a German desk
# and an Italian referee read the same items). A label the organiser typed is shown as typed.
KNOWN_CHECKLIST_LABELS = (
    gettext_noop("Diving licence (OWD)"),
    gettext_noop("Medical certificate"),
    gettext_noop("Entry fee paid"),
    gettext_noop("Own deck checked"),
    gettext_noop("Own dice and cup"),
    gettext_noop("Meal voucher handed out"),
)


@functools.cache
def _known_checklist_labels() -> dict[str, str]:
    """Every known label in every language of the site -> its msgid (built once a process)."""
    known: dict[str, str] = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            known.update({translation.gettext(label): label for label in KNOWN_CHECKLIST_LABELS})
    return known


# The known checklist item that the desk's "Fee paid" (Player.fee_paid_at) also ticks, and back.
FEE_CHECKLIST_LABEL = "Entry fee paid"


def is_fee_item(label: str) -> bool:
    """Is a stored checklist label the known "Entry fee paid", in any of the site's languages?"""
    return _known_checklist_labels().get(label) == FEE_CHECKLIST_LABEL


def checklist_label(label: str) -> str:
    """A stored checklist label in the reader's language where it is a known default."""
    msgid = _known_checklist_labels().get(label)
    return translation.gettext(msgid) if msgid else label


class ChecklistItem(models.Model):
    """One eligibility check at the desk (licence, certificate, fee, own deck)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="checklist_items")
    label = models.CharField(_("label"), max_length=120)
    position = models.PositiveSmallIntegerField(default=0)
    # Equipment the desk keeps during play (own deck) is ticked again when returned.
    returnable = models.BooleanField(_("handed back at the end"), default=False)

    class Kind(models.TextChoices):
        """Who ticks the item (issue 32, item 3): the desk, or the player at self check-in."""

        DESK = "desk", _("the desk checks it")
        SELF = "self", _("the player declares it at self check-in")

    kind = models.CharField(_("ticked by"), max_length=10, choices=Kind.choices, default=Kind.DESK)

    class Meta:
        verbose_name = _("checklist item")
        verbose_name_plural = _("checklist items")
        ordering = ["position", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "label"], name="checklist_label_unique")]

    def __str__(self) -> str:
        return self.shown_label

    @property
    def shown_label(self) -> str:
        """The label in the reader's language where it is a known default (``checklist_label``)."""
        return checklist_label(self.label)


class StaffRole(models.Model):
    """A user's role in one tournament; roles are per tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles")
    role = models.CharField(_("role"), max_length=20, choices=enums.Role.choices)

    class Meta:
        verbose_name = _("staff role")
        verbose_name_plural = _("staff roles")
        ordering = ["role", "user__username"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user", "role"], name="staff_role_unique")]

    def __str__(self) -> str:
        return f"{self.user} – {self.get_role_display()}"


class StaffProfile(models.Model):
    """What a staff member chose for themselves, kept with their account (not per browser):
    the interface language, applied at every login on any tablet (``tournament.language``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="staff_profile"
    )
    language = models.CharField(_("language"), max_length=10, blank=True, choices=settings.LANGUAGES)

    class Meta:
        verbose_name = _("staff profile")
        verbose_name_plural = _("staff profiles")

    def __str__(self) -> str:
        return str(self.user)


class Person(models.Model):
    """One person in a club's register, known from one event to the next: each registration links
    its ``Player`` to a person (``Player.person``). A duplicate is never deleted: merged, it points to
    the person kept (``merged_into``) and its players are the kept person's (``desk.register.merge_persons``)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="people", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=120)
    # The club or team the person plays for, as typed at registration (``Player.club``): text, not a Club.
    team = models.CharField(_("club"), max_length=120, blank=True)
    member_number = models.CharField(_("member number"), max_length=40, blank=True)
    email = models.CharField(_("e-mail"), max_length=200, blank=True)
    phone = models.CharField(_("phone"), max_length=200, blank=True)
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("merged into")
    )
    # The online sign-up picked this register entry's suggestion, but its e-mail did not match: a new
    # person, perhaps the same one. The register page lists it under "Possible duplicates" until the
    # organiser merges it or says it is someone else (``selectors.register.possible_duplicates``).
    maybe_same_as = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("maybe the same as")
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Name and team as ``Player.folded`` (search and sort), and the one person the desk's "new
    # person" finds again instead of adding a second (``desk.register.identity``).
    folded = models.CharField(max_length=folding.SEARCH_TEXT_MAX, blank=True, default="", editable=False)
    identity = models.CharField(max_length=250, db_index=True, editable=False, default="")

    class Meta:
        verbose_name = _("person")
        verbose_name_plural = _("people")
        ordering = ["folded", "name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "member_number"],
                condition=~Q(member_number=""),
                name="person_member_number_unique",
            ),
        ]
        indexes = [models.Index(fields=["club", "identity"], name="person_by_identity")]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.folded = folding.search_text(self.name, self.team)
        self.identity = person_identity(self.name, self.team)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"name", "team"} & set(update_fields):
            kwargs["update_fields"] = {*update_fields, "folded", "identity"}
        super().save(*args, **kwargs)

    @property
    def contact(self) -> str:
        """What the desk's contact field shows: the e-mail address, else the phone number."""
        return self.email or self.phone


def person_identity(name: str, team: str) -> str:
    """Name and team folded (``folding.digraphs``: "Hoeller" is "Höller"): one person of a club's
    register for the desk's "new person" (a second registration of the same name and team finds the first)."""
    return f"{folding.digraphs(name)}|{folding.digraphs(team)}"[:250]


class Player(models.Model):
    """A registered participant. The start number is drawn by lot at check-in."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=120)
    club = models.CharField(_("club"), max_length=120, blank=True)
    contact = models.CharField(_("contact"), max_length=200, blank=True)
    status = models.CharField(
        _("status"), max_length=20, choices=enums.PlayerStatus.choices, default=enums.PlayerStatus.REGISTERED
    )
    start_number = models.PositiveIntegerField(_("start number"), null=True, blank=True)
    # Points format: a checked-in player who pauses is not seated from this round on, until brought back
    # (``formats.points.services.pause_player``/``resume_player``); a new check-in clears it.
    paused_from_round = models.PositiveIntegerField(_("paused from round"), null=True, blank=True)
    # A fixed seat (the desk's marker, ``desk.registration.set_fixed_seat``): the player plays every round
    # at this table number, a place in the hall (wheelchair access, hearing, sight); every format's
    # seating keeps it (``seating.place_fixed``, ``play.rounds.fixed_seats``). Null: seated as anyone.
    fixed_table = models.PositiveSmallIntegerField(_("fixed table"), null=True, blank=True)
    seat_need = models.CharField(_("seat need"), max_length=20, choices=enums.SeatNeed.choices, blank=True, default="")
    registered_at = models.DateTimeField(auto_now_add=True)
    status_changed_at = models.DateTimeField(auto_now_add=True)
    # Sign-up before the day (issue 32, item 2): signed up on the public page (the desk's "online"
    # marker), and when the desk took the fee (``desk.registration.set_fee_paid``; None: not paid).
    signed_up_online = models.BooleanField(_("signed up online"), default=False)
    fee_paid_at = models.DateTimeField(_("fee paid"), null=True, blank=True)
    # Case- and space-folded name, to warn about a second registration of one person.
    name_key = models.CharField(max_length=120, db_index=True, editable=False)
    # Name and club folded for search and sorting (tournament.folding.search_text): "hoeller" finds "Höller",
    # and ordering by it is German and Italian dictionary order. Set by save(); bulk writers set it themselves.
    folded = models.CharField(max_length=folding.SEARCH_TEXT_MAX, blank=True, default="", editable=False)
    # The person of the club's register this registration is (issue 33): the history across events.
    person = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.SET_NULL, related_name="players", verbose_name=_("person")
    )

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["folded", "name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "start_number"], name="player_start_number_unique"),
        ]
        indexes = [models.Index(fields=["tournament", "status"])]

    def __str__(self) -> str:
        if self.start_number:
            return f"{self.start_number} {self.name}"
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.folded = folding.search_text(self.name, self.club)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"name", "club"} & set(update_fields):
            kwargs["update_fields"] = {*update_fields, "folded"}
        super().save(*args, **kwargs)


class PlayerCheck(models.Model):
    """A ticked checklist item for one player, with who ticked it and when."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="checks")
    item = models.ForeignKey(ChecklistItem, on_delete=models.CASCADE, related_name="checks")
    checked_at = models.DateTimeField(auto_now_add=True)
    checked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    returned_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("ticked checklist item")
        verbose_name_plural = _("ticked checklist items")
        constraints = [models.UniqueConstraint(fields=["player", "item"], name="player_check_unique")]

    def __str__(self) -> str:
        return f"{self.player}: {self.item}"


class CheckIn(models.Model):
    """A player's check-in. At most one live check-in per player (constraint).

    ``override`` records that the player was checked in with open checklist
    items, by whom and when; ``open_items`` keeps the labels that were open and
    ``override_reason`` what the desk typed as the reason.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="check_ins")
    checked_in_at = models.DateTimeField(auto_now_add=True)
    checked_in_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    override = models.BooleanField(default=False)
    open_items = models.JSONField(default=list, blank=True)
    # Why the desk let the player in with open items ("certificate comes by e-mail"); required with an override.
    override_reason = models.CharField(max_length=200, blank=True, default="")
    cancelled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        constraints = [
            models.UniqueConstraint(
                fields=["player"], condition=Q(cancelled_at__isnull=True), name="one_live_check_in_per_player"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.checked_in_at:%H:%M}"


class StartNumberDraw(models.Model):
    """A draw of start numbers by lot: the seed and algorithm recompute it."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="draws")
    seed = models.BigIntegerField()
    algorithm = models.CharField(max_length=40)
    drawn_at = models.DateTimeField(auto_now_add=True)
    drawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    # [[player_id, start_number], ...] in start-number order, as drawn.
    result = models.JSONField(default=list)

    class Meta:
        verbose_name = _("start-number draw")
        verbose_name_plural = _("start-number draws")
        ordering = ["-drawn_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.tournament} seed {self.seed}"


class TombolaPrize(models.Model):
    """A prize of the tombola, in the order it is given out (``position``, from 1).

    Added, renamed, moved and removed until it is drawn; its winner is its last draw not
    marked absent (``TombolaDraw``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tombola_prizes")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(_("prize"), max_length=120)

    class Meta:
        verbose_name = _("tombola prize")
        verbose_name_plural = _("tombola prizes")
        ordering = ["position", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "position"], name="tombola_prize_position_unique")]

    def __str__(self) -> str:
        return f"{self.position}. {self.name}"


class TombolaDraw(models.Model):
    """One draw of a prize by lot: its seed and the pool it was drawn among (sorted player ids)
    recompute it (``draws.draw_tombola_winner(pool, seed) == player``). A winner who is not
    there is marked ``absent_at`` (never deleted): the prize is drawn again by a new draw."""

    prize = models.ForeignKey(TombolaPrize, on_delete=models.CASCADE, related_name="draws")
    player = models.ForeignKey("Player", on_delete=models.CASCADE, related_name="tombola_draws")
    seed = models.BigIntegerField()
    algorithm = models.CharField(max_length=40)
    pool = models.JSONField(default=list)
    drawn_at = models.DateTimeField(auto_now_add=True)
    drawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    absent_at = models.DateTimeField(null=True, blank=True)
    absent_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        verbose_name = _("tombola draw")
        verbose_name_plural = _("tombola draws")
        ordering = ["drawn_at", "pk"]
        constraints = [
            # A prize has at most one winner who counts.
            models.UniqueConstraint(
                fields=["prize"], condition=models.Q(absent_at__isnull=True), name="tombola_one_winner_per_prize"
            )
        ]

    def __str__(self) -> str:
        return f"{self.prize}: {self.player_id} seed {self.seed}"


class Round(models.Model):
    """A round of play in one stage; its seating seed and algorithm are stored."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    # ``number`` orders all rounds of the tournament; ``stage_number`` counts within the stage
    # (main round 2 may be the tournament's third round, after the lucky-loser round).
    number = models.PositiveSmallIntegerField()
    stage_number = models.PositiveSmallIntegerField(default=1)
    stage = models.CharField(max_length=20, choices=enums.Stage.choices, default=enums.Stage.MAIN)
    status = models.CharField(max_length=20, choices=enums.RoundStatus.choices, default=enums.RoundStatus.PLANNED)
    seed = models.BigIntegerField(null=True, blank=True)
    seating_algorithm = models.CharField(max_length=40, blank=True)
    # Why the round seats whom it seats, for the staff (the organiser's choice, the forecast);
    # ``public_note`` holds only what players and the audience read (who moved up or stayed out).
    seating_note = models.TextField(blank=True)
    public_note = models.TextField(blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")]

    def __str__(self) -> str:
        """The round's one name ("Main round 2", "Final"; "Round 2" in the points format): ``tournament.naming``."""
        return naming.round_name(self.stage, self.stage_number, self.tournament_id)


class Table(models.Model):
    """A table of one round. ``version`` is bumped by every result so a tablet
    with a stale view is refused instead of overwriting a newer entry."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=20, choices=enums.TableStatus.choices, default=enums.TableStatus.PLAYING)
    first_dealer_position = models.PositiveSmallIntegerField(null=True, blank=True)
    wins_needed = models.PositiveSmallIntegerField(null=True, blank=True)
    points_target = models.PositiveIntegerField(null=True, blank=True)
    chips_per_player = models.PositiveSmallIntegerField(null=True, blank=True)
    is_duel = models.BooleanField(default=False)
    # The last table of a stage (main round's final table, consolation final).
    is_final = models.BooleanField(default=False)
    # For a duel: the final place its winner takes (the others follow).
    duel_for_place = models.PositiveSmallIntegerField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)
    started_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # Points format with a time limit: the referee called time at this table.
    time_called_at = models.DateTimeField(null=True, blank=True)
    # A fixed seat kept here (``Player.fixed_table``): the number was the fixed player's, and the
    # printouts and the projector say so in words (``fixed_label``); ``fixed_need`` is the need named.
    fixed_seat = models.BooleanField(default=False)
    fixed_need = models.CharField(max_length=20, choices=enums.SeatNeed.choices, blank=True, default="")
    # Second confirmation (Tournament.confirm_results): who confirmed the decided result.
    # Cleared whenever the result changes (a game recorded, undone or corrected; reopened).
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # A player at the table called a referee ("Call a referee", or "Not right" about a table-mate's
    # entry: ``passes.table_entry``); cleared by a referee ("Handled") or any staff entry here.
    referee_called_at = models.DateTimeField(null=True, blank=True)
    referee_called_by = models.ForeignKey("Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    referee_call_reason = models.CharField(max_length=20, choices=enums.RefereeCall.choices, blank=True, default="")

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["round", "number"]
        # No unique number per round: a number names one table while it plays, and is reused once
        # that table is out of play (``play.rounds.in_play``), also within a round (the
        # consolation round's tables come and go). Tables in play never share one (``seat_table``).

    def __str__(self) -> str:
        """The table's one name ("Main round 2 · Table 3", "Final · Duel for place 2")."""
        return naming.of_table(self)

    @property
    def fixed_label(self) -> str:
        """ "Fixed seat" (with the need: "Fixed seat: Wheelchair access") or "" for another table."""
        if not self.fixed_seat:
            return ""
        if self.fixed_need:
            return gettext("Fixed seat: %(need)s") % {"need": enums.SeatNeed(self.fixed_need).label}
        return gettext("Fixed seat")


class Seat(models.Model):
    """A player's seat at a table, in seat order; ``place`` once decided."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    advances = models.BooleanField(null=True, blank=True)
    out_order = models.PositiveSmallIntegerField(null=True, blank=True)
    # Recomputed from the table's valid games by every result service (never typed in).
    games_won = models.PositiveSmallIntegerField(default=0)
    points = models.IntegerField(default=0)
    chips = models.PositiveSmallIntegerField(default=0)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["table", "player"], name="seat_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.position + 1} {self.player}"


class PoolEntry(models.Model):
    """A player waiting in the consolation pool (life-bands format).

    At most one open entry per player (constraint): the pool never holds a
    player twice. ``left_reason`` says how the wait ended.
    """

    class Left(models.TextChoices):
        SEATED = "seated", _("Seated at a consolation table")
        QUALIFIED = "qualified", _("Reached the grand final")
        UNDONE = "undone", _("Result undone")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pool")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="pool_entries")
    source_table = models.ForeignKey(Table, null=True, on_delete=models.CASCADE, related_name="+")
    joined_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True)
    left_reason = models.CharField(max_length=20, choices=Left.choices, blank=True)
    seated_at_table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        verbose_name = _("consolation pool entry")
        verbose_name_plural = _("consolation pool")
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["player"], condition=Q(left_at__isnull=True), name="one_open_pool_entry_per_player"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.joined_at:%H:%M})"


class LedgerEntry(models.Model):
    """Chips and life bands move only through entries of this ledger."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="ledger")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ledger")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.CASCADE, related_name="ledger")
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="ledger")
    kind = models.CharField(max_length=20, choices=enums.LedgerKind.choices)
    chips = models.SmallIntegerField(default=0)
    bands = models.SmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        verbose_name = _("chip and life-band entry")
        verbose_name_plural = _("chip and life-band ledger")
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.player}: {self.get_kind_display()} ({self.chips:+d} / {self.bands:+d})"


class AuditEntry(models.Model):
    """Who did what and when; written by every service."""

    tournament = models.ForeignKey(Tournament, null=True, on_delete=models.CASCADE, related_name="audit")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(max_length=60)
    detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Who did it when it was a player with their pass (``tournament.passes``; ``actor`` is then None).
    actor_player = models.ForeignKey("Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # What the entry concerns, for the audit page's filters (the detail keeps the rest).
    table = models.ForeignKey("Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    player = models.ForeignKey("Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # Where it came from: the page posted to and the device (a short user agent).
    source = models.CharField(max_length=200, blank=True)
    device = models.CharField(max_length=200, blank=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["tournament", "-created_at", "-id"], name="audit_by_tournament")]

    def __str__(self) -> str:
        return f"{self.created_at:%H:%M:%S} {self.action}"


class TrackerGame(models.Model):
    """The Schocken game in progress at a table as the half tracker left it (life bands), one row per
    table, so every tablet opening the tracker continues the same game (same half, lids, thrower).

    ``state`` holds the tracker's encoded state (``life_bands.views.TrackerState.encode``);
    ``results_mark`` names the table's recorded games it follows ("<valid games>:<last valid game>"):
    once a result is recorded, undone or corrected there the kept game is stale and the tracker
    starts the next game from the table. ``revision`` grows with every scored round: a tablet that
    posts a round on an older revision is refused (``life_bands.tracker.keep_game``), never
    silently overwrites a round another tablet scored.
    """

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="tracker_game")
    state = models.JSONField(default=dict)
    results_mark = models.CharField(max_length=40, blank=True)
    revision = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("tracked game")
        verbose_name_plural = _("tracked games")

    def __str__(self) -> str:
        return f"{self.table_id} r{self.revision}"


def _note_format(sender: type[Tournament], instance: Tournament, **kwargs: Any) -> None:
    """Every tournament read or saved tells ``naming`` its format (a round's name follows it). The
    format is read only where it was loaded: a deferred field is never fetched for this."""
    fmt = instance.__dict__.get("format")
    if instance.pk is not None and fmt:
        naming.note_format(instance.pk, fmt)


models.signals.post_init.connect(_note_format, sender=Tournament, dispatch_uid="naming_format")
models.signals.post_save.connect(_note_format, sender=Tournament, dispatch_uid="naming_format_saved")


class PlayerPass(models.Model):
    """A player's pass: the unguessable link (and QR code on the start card) that opens "my
    tournament" on their phone without an account (``tournament.passes``).

    The link's secret is never stored: it is derived from ``nonce`` with the site's secret key
    (``passes.tokens.token_for``), so a copy of the database alone opens no pass, and only its
    SHA-256 (``token_hash``) is kept for the look-up. A new pass revokes the old (``revoked_at``);
    a player holds at most one live pass."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="passes")
    nonce = models.CharField(max_length=64, editable=False)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("player pass")
        verbose_name_plural = _("player passes")
        constraints = [
            models.UniqueConstraint(
                fields=["player"], condition=Q(revoked_at__isnull=True), name="player_pass_one_live"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}:{'revoked' if self.revoked_at else 'live'}"


class SeatArrival(models.Model):
    """A player said "I'm at my table" for the seat they were given (one row per seat: a second
    tap finds it). The organiser's rounds page lists the seats of the tables in play without one."""

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="arrival")
    arrived_at = models.DateTimeField(auto_now_add=True)
    player_pass = models.ForeignKey(PlayerPass, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        verbose_name = _("arrival at a table")
        verbose_name_plural = _("arrivals at tables")

    def __str__(self) -> str:
        return f"{self.seat_id} {self.arrived_at:%H:%M:%S}"


class SelfArrival(models.Model):
    """A player said "I'm here" (self check-in, issue 32, item 3) while a checklist item the desk
    must see was open: they are on the desk's "arrived, needs the desk" list until checked in
    (the list reads the registered players with one). One row per player: a second tap finds it."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="self_arrival")
    arrived_at = models.DateTimeField(auto_now_add=True)
    player_pass = models.ForeignKey(PlayerPass, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        verbose_name = _("arrival at the entrance")
        verbose_name_plural = _("arrivals at the entrance")

    def __str__(self) -> str:
        return f"{self.player_id} {self.arrived_at:%H:%M:%S}"


# --- the club's season (issue 33, item 2) ------------------------------------------------------

SERIES_PRESET_CHOICES = [
    (series_rules.PRESET_FIELD_SIZE, _("Players − place + 1 (per event)")),
    (series_rules.PRESET_CLUB_CLASSIC, _("Club classic: 10, 8, 6, 5, 4, 3, 2, 1")),
    (series_rules.PRESET_F1_LIKE, _("Formula 1: 25, 18, 15, 12, 10, 8, 6, 4, 2, 1")),
    (series_rules.PRESET_TABLE, _("Your own table")),
]
SERIES_TIE_BREAK_LABELS = {
    series_rules.MORE_WINS: _("More wins"),
    series_rules.BETTER_BEST_PLACE: _("Better best place"),
    series_rules.MORE_EVENTS: _("More events played"),
    series_rules.BETTER_LAST_RESULT: _("Better result in the latest event"),
}


def default_tie_breaks() -> list[str]:
    return list(series_rules.DEFAULT_TIE_BREAKS)


def scoring_error_message(error: series_rules.SeriesError) -> str:
    """The pure rules' refusal of a series' settings (``check_scoring``'s code) in the reader's words."""
    messages = {
        "unknown_preset": gettext("Choose one of the ways to give points."),
        "empty_table": gettext("Your own table needs the points of at least one place, e.g. 10, 8, 6."),
        "negative_points": gettext("Points per place cannot be negative."),
        "table_grows": gettext("A worse place cannot score more points: write the table from place 1 downwards."),
        "best_n_too_small": gettext("“Best results” counts at least 1 event; leave it empty to count all."),
        "negative_minimum": gettext("The minimum number of events cannot be negative."),
        "unknown_tie_break": gettext("Choose the tie-breaks from the list."),
        "repeated_tie_break": gettext("Each tie-break can be used once."),
    }
    return messages.get(error.code, gettext("These settings cannot score a series."))


class Series(models.Model):
    """A series of a club's tournaments (a season, a league) with its scoring (``season.series_rules``):
    points per place, best N, a minimum of events and the tie-break order. Its standings are computed
    from the events' final rankings whenever they are read (``selectors.season``), never stored;
    ``version`` moves with every change of the series (settings, events), so cached standings go stale."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="series", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=200)
    public_key = models.CharField(_("public key"), max_length=32, unique=True, default=new_public_key, editable=False)
    points_preset = models.CharField(
        _("points per place"),
        max_length=40,
        choices=SERIES_PRESET_CHOICES,
        default=series_rules.PRESET_FIELD_SIZE,
        help_text=_(
            "Players − place + 1: the winner of an evening of 24 scores 24, the last 1. Club classic and"
            " Formula 1: fixed points for the first places. Your own table: the points you write below."
        ),
    )
    points_table = models.JSONField(
        _("your own points table"),
        default=list,
        blank=True,
        help_text=_(
            "Points for place 1, 2, 3 … separated by commas (e.g. 12, 10, 8, 6, 4, 2, 1). Places beyond the"
            " table score its last value: end with 1 to give a point for coming, with 0 to give nothing."
        ),
    )
    best_n = models.PositiveSmallIntegerField(
        _("best results counted"),
        null=True,
        blank=True,
        help_text=_("Only the best this many results of each player count. Empty: every result counts."),
    )
    minimum_events = models.PositiveSmallIntegerField(
        _("minimum number of events"),
        default=0,
        help_text=_("Players with fewer events are listed after the others as “not yet ranked”. 0: no minimum."),
    )
    tie_breaks = models.JSONField(
        _("tie-breaks"),
        default=default_tie_breaks,
        blank=True,
        help_text=_("Applied in this order when totals are equal; a tie left after all of them shares the place."),
    )
    version = models.PositiveBigIntegerField(default=1, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("series")
        verbose_name_plural = _("series")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.name

    def tie_break_labels(self) -> list[str]:
        """The tie-breaks in their order, in words (the series' rules on its pages)."""
        return [str(SERIES_TIE_BREAK_LABELS.get(code, code)) for code in self.tie_breaks or ()]

    def scoring(self) -> series_rules.Scoring:
        """The settings as the pure rules take them."""
        return series_rules.Scoring(
            preset=self.points_preset,
            table=tuple(int(points) for points in self.points_table or ()),
            best_n=self.best_n,
            minimum_events=self.minimum_events,
            tie_breaks=tuple(self.tie_breaks or ()),
        )

    def clean(self) -> None:
        super().clean()
        try:
            series_rules.check_scoring(self.scoring())
        except (series_rules.SeriesError, TypeError, ValueError) as error:
            message = (
                scoring_error_message(error)
                if isinstance(error, series_rules.SeriesError)
                else gettext("Points per place are whole numbers.")
            )
            raise ValidationError(message) from error


class SeriesEvent(models.Model):
    """A tournament counted in a series (a tournament may be in several series)."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="events", verbose_name=_("series"))
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="series_events", verbose_name=_("tournament")
    )

    class Meta:
        verbose_name = _("event of a series")
        verbose_name_plural = _("events of a series")
        constraints = [models.UniqueConstraint(fields=["series", "tournament"], name="series_event_unique")]

    def __str__(self) -> str:
        return f"{self.series_id}: {self.tournament_id}"
