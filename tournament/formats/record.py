"""What the rest of the app may ask of a format: one ``Format`` record per format.

Each format package (``tournament/formats/<slug>/``) builds its record in
``plugin.py``; ``tournament.formats.registry`` collects them. Views, selectors,
the simulation and the desk ask the record of the tournament's format instead
of comparing ``tournament.format`` to a value. It is a record of functions and
template names, not a class hierarchy: a new format writes one package and adds
one line to the registry.

Also here: ``Standing``, the one ranking row every format returns (ranking
page, CSV export, JSON, projector, phone page), and the small result types of
the organiser's and the referee's steps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from django import forms
from django.urls import URLPattern
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from games.models import Game, GameScore
from tournament.errors import ServiceError
from tournament.formats.base import Entry, FormatSpec
from tournament.models import Player, Round, Table, Tournament
from tournament.play.corrections import CorrectionHooks
from tournament.writes import User

if TYPE_CHECKING:
    from tournament.day_plan import ExpectedPlan
    from tournament.selectors.play import TableView
    from tournament.simulation import SimulationResult

Label = str | Promise


@dataclass(frozen=True)
class RankedPlayer:
    """A ranked player as the ranking's readers use it (the ranking page and its search, the
    CSV, the printout, the projector, ``api.json``, the phone page, the corrections' ranking
    check): what every format's ``ranking`` returns in ``Standing.player`` and what the shared
    cache keeps, read as plain rows (``ranked_players``). At 5,000 players building the
    ``Player`` instances took a third of a second (two timestamps parsed per row), and pickling
    them another quarter."""

    pk: int
    name: str
    start_number: int | None
    club: str
    status: str
    paused_from_round: int | None = None

    @property
    def id(self) -> int:
        return self.pk

    def __str__(self) -> str:
        return self.name


def ranked_players(tournament: Tournament, statuses: Sequence[str]) -> dict[int, RankedPlayer]:
    """The players of ``tournament`` with one of ``statuses``, by pk, in the players' order
    (``Player.Meta.ordering``). One query of plain rows."""
    rows = Player.objects.filter(tournament=tournament, status__in=statuses).values_list(
        "pk", "name", "start_number", "club", "status", "paused_from_round"
    )
    return {row[0]: RankedPlayer(*row) for row in rows}


@dataclass(frozen=True)
class Standing:
    """One place in a tournament's ranking, the same shape for every format.

    ``decided_by`` is the code of the rule that put the player below the one
    above (``Format.rule_labels`` names it); the other fields are filled where
    the format has them and ``None`` where it has not. ``final_points`` are the
    points scored in a final played to points; ``duel`` says in words the duel
    that decided a tie (``duel_for_place``, ``duel_won``: the same for the JSON).
    ``summary`` is the result beyond the place in a few words, where the format
    has one (the projector's podium and the phone page show it).
    """

    place: int
    player: RankedPlayer
    decided_by: str = ""
    decided_by_label: Label = ""
    reached: Label = ""  # how far the player got, in words
    reached_stage: str = ""  # the same as a stage code (``enums.Stage``) for the JSON
    points: int | None = None
    games_won: int | None = None
    games_played: int | None = None
    best_round: int | None = None
    final_points: int | None = None
    duel: Label = ""
    duel_for_place: int | None = None
    duel_won: bool | None = None
    summary: Label = ""

    @classmethod
    def of(cls, entry: Any, player: RankedPlayer, labels: Mapping[str, Label], **columns: Any) -> Standing:
        """The row of a pure rules' rank entry (``place``, ``decided_by``) for ``player``, its rule named."""
        return cls(
            place=entry.place,
            player=player,
            decided_by=entry.decided_by,
            decided_by_label=labels.get(entry.decided_by, ""),
            **columns,
        )

    def json_value(self, column: str) -> Any:
        """The value of ``column`` in ``api.json``: codes and numbers, not words (the stage
        reached; the duel as the place it was for and whether it was won)."""
        if column == "reached":
            return self.reached_stage
        if column == "duel":
            if self.duel_for_place is None:
                return None
            return {"for_place": self.duel_for_place, "won": self.duel_won}
        return getattr(self, column)


# The rule every format breaks its last ties with (its code is "start_number" in every format's rules).
START_NUMBER_RULE: dict[str, Label] = {"start_number": gettext_lazy("tie: lower start number")}

# The columns a ranking may show beyond place, start number and name, in this order.
RANKING_COLUMNS = ("reached", "final_points", "points", "games_won", "games_played", "best_round", "duel")
# The columns that hold words (the others hold numbers).
TEXT_COLUMNS = frozenset({"reached", "duel"})
# The columns a page or printout leaves out when no row has a value in them (the CSV keeps them).
OPTIONAL_COLUMNS = frozenset({"reached", "final_points", "duel"})


@dataclass(frozen=True)
class StepDone:
    """What an organiser's step on the rounds page did, said in a sentence; ``finished`` when
    the tournament is decided (the page then goes to the ranking)."""

    message: str
    finished: bool = False


@dataclass(frozen=True)
class PublicExtras:
    """What the public pages show beyond rounds, tables and seats: life bands left per player,
    who waits in a pool, and when a table switches to sharp play."""

    bands: Mapping[int, int] = field(default_factory=dict)
    default_bands: int = 0  # bands of a player without a cut (0: the format has no bands)
    pool: Sequence[tuple[int | None, str]] = ()
    qualified: frozenset[int] = frozenset()  # player ids through to a final not seated yet, without a table
    sharp_minutes: int | None = None
    sharp_stages: tuple[str, ...] = ()  # the stages whose tables switch to sharp play
    # Players between rounds (at no playing table) and the round they wait for:
    # (player id, name, stage, stage number), named by ``tournament.naming.round_name`` when shown.
    waiting: Sequence[tuple[int, str, str, int]] = ()


# The hooks a format's services supply, typed as the services take them: keyword arguments
# (``tournament.writes``), checked by mypy against each format's functions (``build`` below).


class NextStep(Protocol):
    """The organiser's step on the rounds page (``Format.next_step``)."""

    def __call__(
        self, *, tournament: Tournament, actor: User, action: str = ..., choice: str = ..., confirmed: bool = ...
    ) -> StepDone: ...


class RecordWinner(Protocol):
    """A game recorded by its winner, with the card points left in the other hands where counted:
    typed in ``card_points`` or tapped in ``hands``, {player: {card: count}} (UNO formats)."""

    def __call__(
        self,
        *,
        tournament: Tournament,
        actor: User,
        table_id: int,
        winner_id: int,
        version: int,
        idempotency_key: str,
        card_points: Mapping[int, int] | None = ...,
        hands: Mapping[int, Mapping[str, int]] | None = ...,
    ) -> Game: ...


class RecordLoser(Protocol):
    """A game recorded by its loser (life bands: one chip handed in)."""

    def __call__(
        self, *, tournament: Tournament, actor: User, table_id: int, loser_id: int, version: int, idempotency_key: str
    ) -> Game: ...


class UndoResult(Protocol):
    """The table's last valid game undone (voided) while the table is open."""

    def __call__(self, *, tournament: Tournament, actor: User, table_id: int, version: int) -> Game: ...


class TableWrite(Protocol):
    """A write on a whole table at the version the tablet saw: close it, call time."""

    def __call__(self, *, tournament: Tournament, actor: User, table_id: int, version: int) -> Table: ...


class Simulate(Protocol):
    """A whole tournament played with random results (the dry runs)."""

    def __call__(self, tournament: Tournament, *, seed: int, actor: object | None = ...) -> SimulationResult: ...


@dataclass(frozen=True)
class Entered:
    """What a referee entered for a game (the posted form read by the format's ``ResultEntry``):
    its winner and the card points by player, typed (``points``) or tapped on the calculator
    (``hands``: {player: {card: count}}), or its loser. A refused form is shown again with it."""

    winner: int | None = None
    points: Mapping[int, int] | None = None
    hands: Mapping[int, Mapping[str, int]] | None = None
    loser: int | None = None


class EntryRefused(ServiceError):
    """A result entry refused, nothing saved: ``entered`` what the form carried (shown again);
    ``attempt`` names what was tried where the form itself was refused, before any service
    (the view audits it then; the services audit their own refusals)."""

    def __init__(self, message: str, *, entered: Entered | None = None, attempt: str = "") -> None:
        super().__init__(message)
        self.entered = entered
        self.attempt = attempt


@dataclass(frozen=True)
class Recorded:
    """A game recorded (or replayed: ``game.replayed``) and the sentence saying so."""

    game: Game
    notice: str


class ResultEntry(Protocol):
    """How a format's referee enters a game (``tournament.formats.entries``: by its winner with
    the card points, or by its loser): reads the posted form, records it, and gives the table
    page what its entry template needs (the calculators with what a refused form carried)."""

    def read(self, data: Mapping[str, str]) -> tuple[Entered, str]:
        """What the form carries and a translated problem ("" when it is well formed)."""
        ...

    def enter(self, *, tournament: Tournament, actor: User, table_id: int, data: Mapping[str, str]) -> Recorded:
        """Record the posted game; ``EntryRefused`` with nothing saved."""
        ...

    def context(self, tournament: Tournament, view: TableView, entered: Entered | None) -> dict[str, Any]: ...


# What ``build`` reads from a format package's modules, as protocols its modules satisfy (mypy
# checks the modules each ``plugin.py`` passes). What a format has only where it needs it
# (``settings_notes``, ``settings_saved``, ``ranking_notes``, ``expected_plan``,
# ``expected_sharp_play``) is read where present and typed by ``Format``'s fields.


class RulesModule(Protocol):
    @property
    def SPEC(self) -> FormatSpec: ...


class ServicesModule(Protocol):
    @property
    def next_step(self) -> NextStep: ...
    @property
    def record_result(self) -> RecordWinner | RecordLoser: ...
    @property
    def undo_result(self) -> UndoResult: ...
    @property
    def close_table(self) -> TableWrite: ...
    @property
    def result_entry(self) -> ResultEntry: ...
    @property
    def CORRECTIONS(self) -> CorrectionHooks: ...


class SelectorsModule(Protocol):
    @property
    def RANKING_TITLE(self) -> Label: ...
    @property
    def RANKING_COLUMNS(self) -> tuple[str, ...]: ...
    @property
    def LIVE_STANDINGS(self) -> bool: ...
    @property
    def RULE_LABELS(self) -> Mapping[str, Label]: ...
    def ranking(self, tournament: Tournament) -> list[Standing]: ...
    def rounds_context(self, tournament: Tournament, rounds: list[Round]) -> dict[str, Any]: ...
    def table_context(self, tournament: Tournament, view: TableView) -> dict[str, Any]: ...
    def public_extras(self, tournament: Tournament) -> PublicExtras: ...
    def default_checklist(self) -> list[str]: ...
    def counts_card_points(self, table: Table) -> bool: ...
    def rating_order(self, table: RatedTable) -> RatedOrder | None: ...


@dataclass(frozen=True)
class RatedSeat:
    """A seat of a closed table as the season's rating reads it (``selectors.season``): the seat's
    person (a stand-in id for a player without one) and what the formats keep on ``Seat``."""

    person: int
    games_won: int
    points: int
    place: int | None
    out_order: int | None


@dataclass(frozen=True)
class RatedTable:
    """A closed table of a finished tournament for the rating: its round and its seats."""

    round_number: int
    stage: str
    is_duel: bool
    is_final: bool
    seats: tuple[RatedSeat, ...]


@dataclass(frozen=True)
class RatedOrder:
    """What a table tells the rating: the round's key (orders each person's tables as played,
    ``season.rating``) and each seated person's rank (1 best, ties equal)."""

    round_key: int
    ranks: Mapping[int, int]


class RatingOrder(Protocol):
    """The table's order as the format ranks it (``season.rating``'s order helpers), or None for a
    table the rating leaves out (knockout's duels: their outcome is in the final's places)."""

    def __call__(self, table: RatedTable) -> RatedOrder | None: ...


class DryRunModule(Protocol):
    @property
    def simulate(self) -> Simulate: ...


class SettingsModule(Protocol):
    """A format's ``settings.py``: its own settings as the fields of ``SettingsForm``."""

    @property
    def SettingsForm(self) -> type[forms.Form]: ...


class NoSettings(forms.Form):
    """The settings form of a format without settings of its own."""


@dataclass(frozen=True)
class Templates:
    """Template names a format fills in.

    - ``rounds_step``: the organiser's next step on the rounds page (while the tournament runs);
    - ``rounds``: the rounds below it (the bracket);
    - ``table``: the referee's entry on a table (inside the table panel);
    - ``seat_score``: one seat's score on the staff's lists and bracket (a ``Seat``);
    - ``public_score``: the same on the projector (a ``PublicSeat``);
    - ``find_status``: the phone page's "what now" for a player;
    - ``find_result``: the phone page's line for one of the player's tables (``seat``, a
      ``PublicSeat``, at ``table``, a ``PublicTable``): what the format counts there;
    - ``rules``: the short rules line under a table's name.
    """

    rounds_step: str
    rounds: str
    table: str
    seat_score: str
    public_score: str
    find_status: str
    find_result: str
    rules: str


@dataclass(frozen=True)
class Format:
    """Everything format-specific the rest of the app uses (see the module docstring).

    Writes take keyword arguments like every service (``tournament.writes``).
    """

    slug: str
    label: Label
    spec: FormatSpec
    games: tuple[str, ...]  # the games it is played with; the first is the default
    templates: Templates
    # The tournament settings this format uses (shown on the settings page beyond the common ones).
    settings_used: tuple[str, ...]
    # The format's own settings (``formats/<slug>/settings.py``): a form whose fields are the
    # settings by name, each default its ``initial``. Stored in ``Tournament.format_settings``,
    # read and written as ``tournament.<name>`` (``models.FormatSetting``); no column.
    settings_form: type[forms.Form]
    # The eligibility checklist a new tournament of this format starts with.
    default_checklist: Callable[[], list[str]]
    # The organiser's step on the rounds page, with the posted ``action``, ``choice`` and ``confirmed``:
    # a step that loses something (finishing before the planned end) raises ``NeedsConfirmation``
    # saying what, unless ``confirmed``.
    next_step: NextStep
    # The rounds page: what the template needs beyond rounds, tables and counters.
    rounds_context: Callable[[Tournament, list[Round]], dict[str, Any]]
    # The referee's table page: what the entry template needs beyond the table view.
    table_context: Callable[[Tournament, TableView], dict[str, Any]]
    # How a result is entered at a table: its winner (with card points where counted) or its loser.
    entry: Entry
    # Whether a table's games count card points (the calculator is shown, points are tallied).
    counts_card_points: Callable[[Table], bool]
    # ``RecordWinner`` where ``entry`` is ``Entry.WINNER``, ``RecordLoser`` where it is ``Entry.LOSER``.
    record_result: RecordWinner | RecordLoser
    undo_result: UndoResult
    close_table: TableWrite
    # The referee's posted game read and recorded with ``record_result`` (``formats.entries``).
    result_entry: ResultEntry
    ranking: Callable[[Tournament], list[Standing]]
    ranking_title: Label
    ranking_columns: tuple[str, ...]
    # The ranking means something while play goes on (points): the public pages show it as standings.
    live_standings: bool
    rule_labels: Mapping[str, Label]
    public_extras: Callable[[Tournament], PublicExtras]
    simulate: Simulate
    # What the organiser's corrections need from the format (``tournament.play.corrections``).
    corrections: CorrectionHooks
    # The season's rating (``selectors.season``): a closed table's order as the format ranks it.
    rating_order: RatingOrder
    # Points format with a time limit: the table ends with the games played.
    call_time: TableWrite | None = None
    # Several rounds play at once (life bands: main and consolation): lists show every running round.
    parallel_rounds: bool = False
    urlpatterns: tuple[URLPattern, ...] = ()
    # The settings page: a sentence for a setting whose change meets something already seated
    # (knockout: a seated final takes a new target until its first game).
    settings_notes: Callable[[Tournament], dict[str, str]] = field(default=lambda tournament: {})
    # After the settings are saved (same transaction, the tournament locked): carry the ``changed``
    # settings to what is already seated, or refuse with ``ServiceError``. Returns sentences saying
    # what was carried (the settings page shows them).
    settings_saved: Callable[[Tournament, User, frozenset[str]], list[str]] = field(
        default=lambda tournament, actor, changed: []
    )
    # The rules the ranking follows as the organiser set them, in sentences (points: what a missed
    # round counts, how ties are broken); the ranking page and the printed ranking show them.
    ranking_notes: Callable[[Tournament], list[str]] = field(default=lambda tournament: [])
    # The expected plan of the day for a count of players (``tournament.day_plan``, read by
    # ``selectors.day_plan``) and the minutes after which its tables play sharp (None: never).
    expected_plan: Callable[[Tournament, int], ExpectedPlan | None] = field(default=lambda tournament, players: None)
    expected_sharp_play: Callable[[Tournament], int | None] = field(default=lambda tournament: None)
    # What a seat counts beyond games won and points, as api.json's keys (life bands: "chips",
    # "life_bands"); other formats leave them out (``selectors.public``).
    json_seat_counts: tuple[str, ...] = ()
    # The card points a player was left with in a game, as the format stores them (the
    # corrections show them): the score's points unless the format keeps them apart.
    cards_held: Callable[[GameScore], int] = field(default=lambda score: score.points)

    def rule_label(self, code: str) -> Label:
        return self.rule_labels.get(code, "")

    @property
    def records_loser(self) -> bool:
        """A game is recorded by its loser (life bands), not by its winner."""
        return self.entry is Entry.LOSER


# ``build`` reads a format package's modules by convention:
#
# - ``rules``: ``SPEC``;
# - ``services``: ``next_step``, ``record_result``, ``result_entry``, ``undo_result``, ``close_table``,
#   ``CORRECTIONS`` and, where the format has them, ``call_time`` and ``settings_saved``;
# - ``selectors``: ``ranking``, ``RANKING_TITLE``, ``RANKING_COLUMNS``, ``LIVE_STANDINGS``, ``RULE_LABELS``,
#   ``rounds_context``, ``table_context``, ``public_extras``, ``default_checklist``,
#   ``counts_card_points``, ``rating_order`` and, where the format has them, ``settings_notes``, ``ranking_notes``,
#   ``expected_plan``, ``expected_sharp_play``, ``cards_held``, ``json_seat_counts``;
# - ``dry_run``: ``simulate``;
# - ``settings`` (where the format has settings of its own): ``SettingsForm``;
# - templates: ``templates/formats/<slug>/`` rounds, table, seat_score, public_score, find_status,
#   find_result, rules.

#: What a format has only where it needs it (the record's defaults otherwise): (module, name).
_OPTIONAL_PARTS: tuple[tuple[str, str], ...] = (
    ("selectors", "settings_notes"),
    ("services", "settings_saved"),
    ("selectors", "ranking_notes"),
    ("selectors", "expected_plan"),
    ("selectors", "expected_sharp_play"),
    ("selectors", "cards_held"),
    ("selectors", "json_seat_counts"),
)


def _optional_parts(services: ServicesModule, selectors: SelectorsModule) -> dict[str, Any]:
    """The optional parts (``_OPTIONAL_PARTS``) the format's modules define, by name."""
    modules: dict[str, object] = {"services": services, "selectors": selectors}
    return {name: getattr(modules[where], name) for where, name in _OPTIONAL_PARTS if hasattr(modules[where], name)}


def build(
    slug: str,
    *,
    rules: RulesModule,
    services: ServicesModule,
    selectors: SelectorsModule,
    dry_run: DryRunModule,
    settings: SettingsModule | None = None,
    label: Label,
    games: tuple[str, ...],
    entry: Entry,
    parallel_rounds: bool = False,
    urlpatterns: tuple[URLPattern, ...] = (),
) -> Format:
    """The record of the format package ``tournament/formats/<slug>/``, read from its modules (passed
    by its ``plugin.py``, typed by the protocols above) by the convention written above ``build``.
    What differs beyond the modules is given here: the label, the games it is played with, how a
    result is entered (``Entry``), whether several rounds play at once, its own URLs."""
    folder = f"formats/{slug}"
    return Format(
        slug=slug,
        label=label,
        spec=rules.SPEC,
        games=games,
        templates=Templates(**{name: f"{folder}/{name}.html" for name in Templates.__dataclass_fields__}),
        settings_used=rules.SPEC.settings_used,
        settings_form=NoSettings if settings is None else settings.SettingsForm,
        default_checklist=selectors.default_checklist,
        next_step=services.next_step,
        rounds_context=selectors.rounds_context,
        table_context=selectors.table_context,
        entry=entry,
        counts_card_points=selectors.counts_card_points,
        record_result=services.record_result,
        undo_result=services.undo_result,
        close_table=services.close_table,
        result_entry=services.result_entry,
        corrections=services.CORRECTIONS,
        rating_order=selectors.rating_order,
        call_time=getattr(services, "call_time", None),  # (only points calls time)
        ranking=selectors.ranking,
        ranking_title=selectors.RANKING_TITLE,
        ranking_columns=selectors.RANKING_COLUMNS,
        live_standings=selectors.LIVE_STANDINGS,
        rule_labels=selectors.RULE_LABELS,
        public_extras=selectors.public_extras,
        simulate=dry_run.simulate,
        parallel_rounds=parallel_rounds,
        urlpatterns=urlpatterns,
        **_optional_parts(services, selectors),
    )


def refuse_other_format(tournament: Tournament, slug: str, message: Label) -> None:
    """A format's service called for a tournament of another format: refused with the format's own words."""
    if tournament.format != slug:
        raise ServiceError(str(message))
