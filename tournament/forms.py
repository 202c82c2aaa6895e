"""Forms bind and clean input; services decide and write."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal

from django import forms
from django.utils.text import capfirst, format_lazy
from django.utils.translation import gettext_lazy as _

from games.rules.uno import ACTION_CARDS, SCORING_PRESETS
from tournament import enums
from tournament.desk import WindowInput
from tournament.desk import register as register_services
from tournament.desk.registration import decode_player_csv
from tournament.desk.tournaments import date_problem
from tournament.errors import ServiceError
from tournament.formats import registry
from tournament.formats.entries import to_int
from tournament.models import (
    SERIES_PRESET_CHOICES,
    SERIES_TIE_BREAK_LABELS,
    ChecklistItem,
    Club,
    Series,
    Tournament,
    scoring_error_message,
)
from tournament.season import series_rules


def default_checklist(fmt: str = "") -> str:
    """The checklist a new tournament of format ``fmt`` (the first format by default) starts with,
    one item a line, in the user's language."""
    record = registry.get(fmt) if fmt in registry.FORMATS else next(iter(registry.FORMATS.values()))
    return "\n".join(str(item) for item in record.default_checklist())


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


WINDOW_SLOTS = 3
MAX_CSV_BYTES = 1_000_000


def format_game_mismatch(fmt: str, game: str) -> str:
    """Why a format cannot be played with a game, naming the games it is played with."""
    record = registry.get(fmt)
    games = ", ".join(str(enums.Game(slug).label) for slug in record.games)
    return str(_("%(format)s is played with %(games)s.") % {"format": record.label, "games": games})


def within_years(value: date | datetime | None) -> None:
    """Form validator: the dates the services accept (``desk.tournaments.date_problem``)."""
    problem = date_problem(value)
    if problem:
        raise forms.ValidationError(problem, code="year_out_of_range")


class DateTimeLocalInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self) -> None:
        super().__init__(format="%Y-%m-%dT%H:%M")


class TournamentCreateForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}), validators=[within_years])
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    game = forms.ChoiceField(label=_("Game"), choices=enums.Game.choices)
    format = forms.ChoiceField(
        label=_("Format"), choices=[(record.slug, record.label) for record in registry.FORMATS.values()]
    )
    capacity = forms.IntegerField(label=_("Capacity (players)"), min_value=3, max_value=5000, initial=50)
    entry_fee = forms.DecimalField(
        label=_("Entry fee (€)"), min_value=Decimal("0"), max_digits=8, decimal_places=2, initial=Decimal("0")
    )
    checklist = forms.CharField(
        label=_("Eligibility checklist (one item per line)"),
        widget=forms.Textarea(attrs={"rows": 5}),
        required=False,
        initial=default_checklist,
    )

    equipment = forms.CharField(
        label=_("Equipment kept at the desk and handed back at the end (one per line)"),
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        help_text=_("For example “Own deck”: it is ticked at check-in and again when returned."),
    )

    club = forms.ChoiceField(
        label=_("Organising club"),
        required=False,
        help_text=_("Its register of players is where this tournament's players are found again next time."),
    )
    new_club = forms.CharField(
        label=_("New club's name"),
        max_length=200,
        required=False,
        help_text=_(
            "Only to start a new club; empty: the club chosen above (or, for your first, one named after you)."
        ),
    )

    def __init__(self, *args: object, clubs: Sequence[Club] = (), **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["club"].choices = club_choices(clubs)
        if not clubs:
            self.fields["club"].widget = forms.HiddenInput()
            self.fields["new_club"].label = _("Your club's name")
        for slot in range(1, WINDOW_SLOTS + 1):
            required = False
            self.fields[f"window_{slot}_opens"] = forms.DateTimeField(
                label=_("Registration window %(n)d opens") % {"n": slot},
                required=required,
                widget=DateTimeLocalInput(),
                validators=[within_years],
            )
            self.fields[f"window_{slot}_closes"] = forms.DateTimeField(
                label=_("closes"), required=required, widget=DateTimeLocalInput(), validators=[within_years]
            )

    def window_fields(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"window_{n}_opens"], self[f"window_{n}_closes"]) for n in range(1, WINDOW_SLOTS + 1)]

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        game, fmt = data.get("game"), data.get("format")
        if isinstance(fmt, str) and fmt in registry.FORMATS and game not in registry.get(fmt).games:
            self.add_error("format", format_game_mismatch(fmt, str(game)))
        for slot in range(1, WINDOW_SLOTS + 1):
            opens, closes = data.get(f"window_{slot}_opens"), data.get(f"window_{slot}_closes")
            if bool(opens) != bool(closes):
                self.add_error(f"window_{slot}_closes", _("Give both the opening and the closing time."))
            elif opens and closes and closes <= opens:
                self.add_error(f"window_{slot}_closes", _("A registration window must close after it opens."))
        return data

    def club_id(self) -> int | None:
        """The chosen club's id (None: none chosen)."""
        return to_int(self.cleaned_data.get("club"))

    def windows(self) -> list[WindowInput]:
        result = []
        for slot in range(1, WINDOW_SLOTS + 1):
            opens = self.cleaned_data.get(f"window_{slot}_opens")
            closes = self.cleaned_data.get(f"window_{slot}_closes")
            if opens and closes:
                result.append(WindowInput(opens_at=opens, closes_at=closes))
        return result

    def checklist_labels(self) -> list[str]:
        """The checklist as typed; the untouched default of another format becomes this format's default
        (the form starts with the first format's list before a format is chosen)."""
        typed = _lines(self.cleaned_data.get("checklist", ""))
        fmt = str(self.cleaned_data.get("format", ""))
        defaults = {slug: _lines(default_checklist(slug)) for slug in registry.FORMATS}
        if fmt in defaults and typed != defaults[fmt] and typed in defaults.values():
            return defaults[fmt]
        return typed

    def equipment_labels(self) -> list[str]:
        return [line.strip() for line in self.cleaned_data.get("equipment", "").splitlines() if line.strip()]


# The settings page's fields before a format's settings and after them.
SETTINGS_HEAD = ("name", "date", "venue", "capacity", "entry_fee")
SETTINGS_TAIL = (
    "confirm_results",
    "table_entry",
    "self_check_in",
    "check_in_by_name",
    "start_time",
    "minutes_between_rounds",
    "game_minutes_preferred",
    "game_minutes_largest",
    "display_rotation_seconds",
    "display_language",
    "listed",
    "online_signup",
    "rules_text",
    "rules_url",
    "announcement",
    "fee_fixes_place",
)


class TournamentSettingsForm(forms.ModelForm):
    """The settings every tournament has, and those its format uses (``Format.settings_used``):
    the columns of ``Tournament`` as a model form, the format's own settings as the fields of its
    settings form (``Format.settings_form``), named and ordered as the format lists them. The
    posted values of the format's own settings are set on the instance (``format_settings``);
    another format's settings are not fields here, so a posted one is ignored."""

    rules_url = forms.URLField(
        label=_("rules: link"),
        required=False,
        assume_scheme="https",
        help_text=_("Optional: where the full rules can be read."),
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        record = registry.of(self.instance)
        own = record.settings_form.base_fields
        for name, field in own.items():
            self.fields[name] = copy.deepcopy(field)
            self.fields[name].label = capfirst(field.label)  # as a model form shows a column's name
            self.initial.setdefault(name, getattr(self.instance, name))
        order = [*SETTINGS_HEAD, *(name for name in record.settings_used if name != "scoring_table"), *SETTINGS_TAIL]
        self.fields = {name: self.fields[name] for name in order if name in self.fields}
        self.format_setting_names = [name for name in self.fields if name in own]

    class Meta:
        model = Tournament
        # Every column a format uses; ``__init__`` keeps the common ones and the format's.
        fields = [
            *SETTINGS_HEAD,
            *dict.fromkeys(
                name
                for record in registry.FORMATS.values()
                for name in record.settings_used
                if name != "scoring_table"  # its own form (ScoringForm)
                and name not in record.settings_form.base_fields
            ),
            *SETTINGS_TAIL,
        ]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "start_time": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "rules_text": forms.Textarea(attrs={"rows": 4}),
            "announcement": forms.Textarea(attrs={"rows": 3}),
        }

    def _post_clean(self) -> None:
        # The format's own settings reach the instance like its columns (``construct_instance``).
        for name in self.format_setting_names:
            if name in self.cleaned_data:
                setattr(self.instance, name, self.cleaned_data[name])
        super()._post_clean()

    def clean_date(self) -> object:
        value = self.cleaned_data.get("date")
        within_years(value)  # type: ignore[arg-type]
        return value

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        size, largest = data.get("table_size"), data.get("table_size_max")
        if isinstance(size, int) and isinstance(largest, int) and largest < size:
            self.add_error("table_size_max", _("The largest table size cannot be below the preferred size."))
        final = data.get("final_size")
        if isinstance(final, int) and isinstance(largest, int) and final > largest:
            self.add_error("final_size", _("The final cannot seat more players than the largest table."))
        return data


def club_choices(clubs: Sequence[Club]) -> list[tuple[str, str]]:
    """The clubs a user runs as choices, by id."""
    return [(str(club.pk), club.name) for club in clubs]


class ClubChoiceForm(forms.Form):
    """The settings page's club: one of the organiser's clubs, or a new one by name."""

    club = forms.ChoiceField(label=_("Organising club"), required=False)
    new_club = forms.CharField(label=_("New club's name"), max_length=200, required=False)

    def __init__(self, *args: object, clubs: Sequence[Club] = (), **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["club"].choices = [("", "—"), *club_choices(clubs)]

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if not data.get("club") and not str(data.get("new_club", "")).strip():
            raise forms.ValidationError(_("Choose one of your clubs or type a new club's name."))
        return data


class ClubRenameForm(forms.Form):
    name = forms.CharField(label=_("Club's name"), max_length=200)


class PersonForm(forms.Form):
    """A register entry edited by the club's organiser (``desk.register.edit_person``): each field's
    problem is said at the field (``register.person_field_problems``, the service's own checks); a
    member number another person has is the service's refusal, said at the top."""

    name = forms.CharField(label=_("Name"), required=False, max_length=2000)
    team = forms.CharField(
        label=_("Club"),
        required=False,
        max_length=2000,
        help_text=_("The club or team the person plays for, as shown on lists."),
    )
    member_number = forms.CharField(
        label=_("Member number"),
        required=False,
        max_length=2000,
        help_text=_("Optional; unique in this club."),
    )
    email = forms.CharField(label=_("E-mail"), required=False, max_length=2000)
    phone = forms.CharField(label=_("Phone"), required=False, max_length=2000)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        for name, limit in (("name", 120), ("team", 120), ("member_number", 40), ("email", 200), ("phone", 200)):
            self.fields[name].widget.attrs["maxlength"] = str(limit)
        self.fields["email"].widget.attrs.update(type="email", autocomplete="off")
        self.fields["phone"].widget.attrs.update(type="tel", autocomplete="off")

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if not self.errors:
            for field, problem in register_services.person_field_problems(self.person_fields()).items():
                self.add_error(field, problem)
        return data

    def person_fields(self) -> register_services.PersonFields:
        data = self.cleaned_data
        return register_services.PersonFields(
            *(str(data.get(name, "")) for name in ("name", "team", "member_number", "email", "phone"))
        ).cleaned()


class OrganiserForm(forms.Form):
    """Another organiser of the club, by the user name of an existing account."""

    username = forms.CharField(label=_("User name"), max_length=150)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["username"].widget.attrs.update(autocomplete="off", autocapitalize="none", spellcheck="false")


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    club = forms.CharField(label=_("Club"), max_length=120, required=False)
    contact = forms.CharField(label=_("Contact (phone or e-mail)"), max_length=200, required=False)
    check_in_now = forms.BooleanField(
        label=_("Here now: the checklist is done, check in at once"),
        required=False,
        help_text=_("For a walk-in at the desk: registered and checked in with one tap."),
    )
    confirm_same_name = forms.BooleanField(required=False, widget=forms.HiddenInput)
    confirm_outside_window = forms.BooleanField(required=False, widget=forms.HiddenInput)
    # The register's person picked from the suggestions (issue 33); never refuses here: a number
    # or nothing, the service says what is wrong with an id that is not the club's.
    person = forms.CharField(required=False, widget=forms.HiddenInput)

    def clean_person(self) -> int | None:
        return to_int(self.cleaned_data.get("person"))


class FixedSeatForm(forms.Form):
    """The desk's marker for a fixed or accessible table (``desk.set_fixed_seat`` checks the rest:
    a need without a number, too many players fixed to one number)."""

    need = forms.ChoiceField(label=_("Need"), choices=enums.SeatNeed.choices, required=False)
    table = forms.IntegerField(
        label=_("Fixed table number"),
        required=False,
        min_value=1,
        max_value=999,
        help_text=_("The table this player keeps in every round. Leave empty for no fixed table."),
        error_messages={"invalid": _("Enter the table number as a whole number, for example 5.")},
    )


class CsvImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file (name, club, contact)"))
    skip_bad_rows = forms.BooleanField(label=_("Import only the good rows"), required=False)

    def clean_file(self) -> str:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_CSV_BYTES:
            raise forms.ValidationError(
                _("The file is larger than 1 MB. Split it into smaller files and import them one after the other.")
            )
        try:
            return decode_player_csv(upload.read())  # the encodings it reads: see there
        except ServiceError as error:
            raise forms.ValidationError(error.message) from None


class CsvTextForm(forms.Form):
    """The second step of an import with bad rows: the checked text is posted back."""

    text = forms.CharField(widget=forms.HiddenInput)
    skip_bad_rows = forms.BooleanField(required=False, widget=forms.HiddenInput)


class StaffForm(forms.Form):
    """Give a person a role: on a new account (its name and the password it gets) or on an
    existing one (its name and its current password, which the view checks with
    ``authenticate``, throttled like a login). The password is never shown again."""

    NEW = "new"
    EXISTING = "existing"

    account = forms.ChoiceField(
        label=_("Account"),
        choices=[(NEW, _("Create a new account")), (EXISTING, _("Use an existing account"))],
        initial=NEW,
        widget=forms.RadioSelect,
    )
    username = forms.CharField(
        label=_("User name"), max_length=150, widget=forms.TextInput(attrs={"autocomplete": "off"})
    )
    password = forms.CharField(
        label=_("Password"),
        strip=False,
        help_text=_("New account: the password it gets. Existing account: its current password."),
        # "new-password": the browser must not fill in the organiser's own password here.
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "new-password"}),
    )
    role = forms.ChoiceField(label=_("Role"), choices=enums.Role.choices)


class ChecklistItemForm(forms.Form):
    label = forms.CharField(label=_("New checklist item"), max_length=120)
    returnable = forms.BooleanField(label=_("Handed back at the end (equipment)"), required=False)
    kind = forms.ChoiceField(
        label=_("Ticked by"),
        choices=ChecklistItem.Kind.choices,
        initial=ChecklistItem.Kind.DESK,
        required=False,
        help_text=_(
            "Self-declared items (own deck brought) are ticked by the player at self check-in; "
            "a player with an item the desk must see (a medical certificate) is sent to the desk."
        ),
    )


class WindowForm(forms.Form):
    opens_at = forms.DateTimeField(label=_("Opens"), widget=DateTimeLocalInput(), validators=[within_years])
    closes_at = forms.DateTimeField(label=_("Closes"), widget=DateTimeLocalInput(), validators=[within_years])

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        opens, closes = data.get("opens_at"), data.get("closes_at")
        if opens and closes and closes <= opens:  # type: ignore[operator]
            self.add_error("closes_at", _("A registration window must close after it opens."))
        return data


class DrawForm(forms.Form):
    seed = forms.IntegerField(
        label=_("Seed (leave empty for a new random draw)"), required=False, min_value=0, max_value=2**62
    )


class ScoringForm(forms.Form):
    """The card scoring table: a preset from the rule documents, or custom values."""

    PRESETS = [
        ("standard", _("Standard (wild +4 = 50)")),
        ("house_rules", _("House rules (wild +4 = 70)")),
        ("custom", _("Custom values")),
    ]
    preset = forms.ChoiceField(label=_("Scoring table"), choices=PRESETS)
    draw_two = forms.IntegerField(label=_("+2"), min_value=0, max_value=500)
    reverse = forms.IntegerField(label=_("Reverse"), min_value=0, max_value=500)
    skip = forms.IntegerField(label=_("Skip"), min_value=0, max_value=500)
    wild = forms.IntegerField(label=_("Wild"), min_value=0, max_value=500)
    wild_draw_four = forms.IntegerField(label=_("Wild +4"), min_value=0, max_value=500)

    @classmethod
    def for_tournament(cls, tournament: Tournament) -> ScoringForm:
        values = dict(tournament.scoring_table)
        preset = next((name for name, table in SCORING_PRESETS.items() if dict(table) == values), "custom")
        return cls(initial={"preset": preset, **values})

    def values(self) -> dict[str, int]:
        preset = self.cleaned_data["preset"]
        if preset in SCORING_PRESETS:
            return dict(SCORING_PRESETS[preset])
        return {kind: self.cleaned_data[kind] for kind in ACTION_CARDS}


class TombolaPrizeForm(forms.Form):
    """A prize's name (``desk.tombola.clean_prize_name`` folds its spaces). Two prizes may have the
    same name: a tombola often gives several vouchers of one kind."""

    name = forms.CharField(label=_("Prize"), max_length=120)

    def clean_name(self) -> str:
        from tournament.desk.tombola import clean_prize_name

        try:
            return clean_prize_name(self.cleaned_data["name"])
        except ServiceError as error:
            raise forms.ValidationError(error.message) from error


class TombolaMoveForm(forms.Form):
    """One place up or down in the order given out."""

    direction = forms.ChoiceField(choices=[("up", _("Up")), ("down", _("Down"))])


class TombolaSettingsForm(forms.Form):
    skip_podium = forms.BooleanField(
        label=_("Only players without a trophy"),
        required=False,
        help_text=_("The players on the podium of the final ranking take no part in the tombola."),
    )
    repeat_winners = forms.BooleanField(
        label=_("A player may win more than one prize"),
        required=False,
        help_text=_("When there are more prizes than players present."),
    )


class SignUpForm(forms.Form):
    """The public sign-up page (``views.signup``). The fields never refuse on their own beyond
    their length: the service (``passes.signup.sign_up``) words what is missing or wrong."""

    name = forms.CharField(label=_("Name"), required=False, max_length=2000)
    club = forms.CharField(label=_("Club"), required=False, max_length=2000)
    contact = forms.CharField(
        label=_("E-mail or phone"),
        required=False,
        max_length=2000,
        help_text=_("The organiser's only way to reach you. With an e-mail address you also get your pass by mail."),
    )
    rules_accepted = forms.BooleanField(label=_("I accept the tournament's rules"), required=False)
    # The club register's suggestion the player picked (issue 33; ``static/js/app.js`` sets it): a
    # number or nothing, never refused here; the service ignores one it would not suggest.
    suggested = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["name"].widget.attrs.update(maxlength="120", autocomplete="name")
        self.fields["club"].widget.attrs.update(maxlength="120", autocomplete="organization")
        self.fields["contact"].widget.attrs.update(maxlength="200", autocomplete="email")

    def clean_suggested(self) -> int | None:
        return to_int(self.cleaned_data.get("suggested"))


# --- a club's series (issue 33, item 2) ----------------------------------------------------------

TIE_BREAK_SLOTS = len(series_rules.TIE_BREAKS)


def _tie_break_field(slot: int) -> forms.ChoiceField:
    return forms.ChoiceField(
        label=format_lazy("{} {}", _("Tie-break"), slot),
        required=False,
        choices=[("", _("— none —")), *SERIES_TIE_BREAK_LABELS.items()],
        help_text=(
            _(
                "More wins: more first places. Better best place. More events played. Better result in the"
                " latest event: the most recent event where the two placed differently."
            )
            if slot == 1
            else ""
        ),
    )


class SeriesForm(forms.Form):
    """A series' settings and its tournaments (the club's, newest first). Refusals come from the
    pure rules' check (``Series.clean``), in words."""

    name = forms.CharField(label=_("Name of the series"), max_length=200)
    points_preset = forms.ChoiceField(
        label=_("Points per place"),
        choices=SERIES_PRESET_CHOICES,
        help_text=Series._meta.get_field("points_preset").help_text,
    )
    points_table = forms.CharField(
        label=_("Your own points table"),
        max_length=400,
        required=False,
        help_text=Series._meta.get_field("points_table").help_text,
    )
    best_n = forms.IntegerField(
        label=_("Best results counted"),
        required=False,
        min_value=1,
        max_value=999,
        help_text=Series._meta.get_field("best_n").help_text,
    )
    minimum_events = forms.IntegerField(
        label=_("Minimum number of events"),
        min_value=0,
        max_value=999,
        initial=0,
        help_text=Series._meta.get_field("minimum_events").help_text,
    )
    tie_break_1 = _tie_break_field(1)
    tie_break_2 = _tie_break_field(2)
    tie_break_3 = _tie_break_field(3)
    tie_break_4 = _tie_break_field(4)
    tournaments = forms.MultipleChoiceField(
        label=_("Tournaments of the series"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Only finished tournaments count; the others are listed as not counted yet."),
    )

    def __init__(self, *args: object, tournaments: Sequence[Tournament] = (), **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["tournaments"].choices = [(str(t.pk), f"{t.name} · {t.date.isoformat()}") for t in tournaments]

    @staticmethod
    def initial_of(series: Series) -> dict[str, object]:
        """The form's values for a saved series."""
        slots = {f"tie_break_{index}": code for index, code in enumerate(series.tie_breaks or [], start=1)}
        return {
            "name": series.name,
            "points_preset": series.points_preset,
            "points_table": ", ".join(str(points) for points in series.points_table or []),
            "best_n": series.best_n,
            "minimum_events": series.minimum_events,
            "tournaments": [str(pk) for pk in series.events.values_list("tournament_id", flat=True)],
            **slots,
        }

    def clean_points_table(self) -> list[int]:
        text = self.cleaned_data.get("points_table", "")
        parts = [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]
        try:
            table = [int(part) for part in parts]
        except ValueError:
            raise forms.ValidationError(_("Write whole numbers separated by commas, e.g. 10, 8, 6, 5.")) from None
        if len(table) > 200 or any(abs(points) > 100_000 for points in table):
            raise forms.ValidationError(_("The table is too long or its numbers too large."))
        return table

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        codes = [data.get(f"tie_break_{slot}") for slot in range(1, TIE_BREAK_SLOTS + 1)]
        data["tie_breaks"] = [code for code in codes if code]
        data["tournament_ids"] = [int(pk) for pk in data.get("tournaments") or []]
        if not self.errors:
            series = Series(
                name=str(data.get("name", "")),
                points_preset=str(data.get("points_preset", "")),
                points_table=data.get("points_table") or [],
                best_n=data.get("best_n"),
                minimum_events=data.get("minimum_events") or 0,
                tie_breaks=data["tie_breaks"],
            )
            try:
                series_rules.check_scoring(series.scoring())
            except series_rules.SeriesError as error:
                raise forms.ValidationError(scoring_error_message(error)) from None
        return data
