"""Reads of the life-bands format: bands left, the waiting pool, the ranking, and
what its pages show beyond the common parts. Fixed query counts."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db.models import BooleanField, Count, Exists, ExpressionWrapper, Max, Q, Sum
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from games.models import GameStatus
from tournament import day_plan, enums, naming
from tournament.formats.life_bands import rules as life_bands
from tournament.formats.record import (
    START_NUMBER_RULE,
    Label,
    PublicExtras,
    RatedOrder,
    RatedTable,
    Standing,
    ranked_players,
)
from tournament.models import LedgerEntry, Player, PoolEntry, Round, Seat, Table, Tournament
from tournament.season import rating

# The ranking page's title, the columns it fills beyond place and name, and whether the
# ranking means something while play goes on (the public pages then show it as standings).
RANKING_TITLE = gettext_lazy("Final ranking")
RANKING_COLUMNS = ("reached",)
LIVE_STANDINGS = False
# A seat in api.json says its chips and the player's life bands left (``Format.json_seat_counts``).
json_seat_counts = ("chips", "life_bands")
RULE_LABELS: dict[str, Label] = {
    life_bands.RULE_GRAND_FINAL: gettext_lazy("place in the grand final"),
    life_bands.RULE_NOT_IN_GRAND_FINAL: gettext_lazy("did not reach the grand final"),
    life_bands.RULE_STILL_IN_MAIN: gettext_lazy("still in the main round"),
    life_bands.RULE_MORE_BANDS: gettext_lazy("more life bands left"),
    life_bands.RULE_MORE_CHIPS: gettext_lazy("more chips left"),
    life_bands.RULE_WENT_OUT_LATER: gettext_lazy("went out later"),
    **START_NUMBER_RULE,
}


def bands_left(tournament: Tournament, player_ids: list[int]) -> dict[int, int]:
    """Life bands each player still has, from the ledger."""
    sums = dict(
        LedgerEntry.objects.filter(tournament=tournament, player_id__in=player_ids)
        .values_list("player_id")
        .annotate(total=Sum("bands"))
        .values_list("player_id", "total")
    )
    return {pid: tournament.life_bands + (sums.get(pid) or 0) for pid in player_ids}


def moves_on_at_close(tournament: Tournament) -> bool:
    """A decided table's players move on only when it is closed: with a second confirmation, and
    with automatic advancement (so that its referee can undo a wrong last tap until the close,
    ``services._after_close``). Otherwise they move on at the decision, and the organiser seats
    on when they choose."""
    return tournament.confirm_results or tournament.auto_advance


@dataclass(frozen=True)
class State:
    """Where everyone is (read under the tournament lock)."""

    main_round: Round | None
    main_open: bool  # main tables still playing
    main_survivors: list[int]  # alive in main, waiting for the next main round
    main_winners: list[int]
    main_done: bool
    consolation: Round | None
    consolation_playing: bool
    pool: list[int]  # oldest first
    consolation_winners: list[int]
    consolation_done: bool
    grand_final: Round | None


def _unsettled(tournament: Tournament) -> list[str]:
    """The table statuses that hold up a round and keep its players from moving on."""
    # With a second confirmation or automatic advancement (``moves_on_at_close``) a decided table
    # counts once it is closed: until then it holds up the round like a playing one, and its
    # players do not move on (its referee can still undo the last game).
    unsettled = [enums.TableStatus.PLAYING]
    if moves_on_at_close(tournament):
        unsettled.append(enums.TableStatus.DECIDED)
    return unsettled


@dataclass(frozen=True)
class _MainRound:
    """Where the latest main round stands: still open, its survivors or, after its final table, its winners."""

    open: bool
    survivors: list[int]
    winners: list[int]
    done: bool


def _main_round(main_round: Round | None, unsettled: list[str]) -> _MainRound:
    """Read the latest main round: open while a table is unsettled, then who survived it."""
    main_open = bool(main_round and main_round.tables.filter(status__in=unsettled).exists())
    if main_round is None or main_open:
        return _MainRound(open=main_open, survivors=[], winners=[], done=False)
    final_table = main_round.tables.filter(is_final=True).first()
    survivors = list(
        Seat.objects.filter(table__round=main_round, out_order__isnull=True)
        .order_by("player__start_number")
        .values_list("player_id", flat=True)
    )
    if final_table is not None:
        return _MainRound(open=main_open, survivors=[], winners=survivors, done=True)
    return _MainRound(open=main_open, survivors=survivors, winners=[], done=False)


def _pool(tournament: Tournament) -> list[int]:
    """Who waits in the consolation pool now and can be seated, the longest waiting first."""
    waiting = PoolEntry.objects.filter(tournament=tournament, left_at__isnull=True)
    if tournament.confirm_results:
        waiting = waiting.filter(Q(source_table__isnull=True) | Q(source_table__status=enums.TableStatus.CLOSED))
    elif tournament.auto_advance:
        # A player out at a table that plays on joins at once (the pool is refilled continuously);
        # those of a decided table when it is closed.
        waiting = waiting.exclude(source_table__status=enums.TableStatus.DECIDED)
    return list(waiting.order_by("joined_at", "pk").values_list("player_id", flat=True))


def _consolation_winners(tournament: Tournament, consolation: Round | None) -> list[int]:
    """Who qualified from the consolation round: through the pool without a table, then at its final tables."""
    winners = list(
        PoolEntry.objects.filter(tournament=tournament, left_reason=PoolEntry.Left.QUALIFIED).values_list(
            "player_id", flat=True
        )
    )
    if consolation is not None:
        winners += list(
            Seat.objects.filter(table__round=consolation, table__is_final=True, advances=True).values_list(
                "player_id", flat=True
            )
        )
    return winners


def state(tournament: Tournament) -> State:
    """Where every player of the tournament is now (the services read it under the tournament lock)."""
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    main_rounds = [r for r in rounds if r.stage == enums.Stage.MAIN]
    main_round = main_rounds[-1] if main_rounds else None
    consolation = next((r for r in rounds if r.stage == enums.Stage.CONSOLATION), None)
    grand_final = next((r for r in rounds if r.stage == enums.Stage.GRAND_FINAL), None)
    unsettled = _unsettled(tournament)
    main = _main_round(main_round, unsettled)
    consolation_playing = bool(consolation and consolation.tables.filter(status__in=unsettled).exists())
    pool = _pool(tournament)
    consolation_winners = _consolation_winners(tournament, consolation)
    final_cons = consolation.tables.filter(is_final=True).first() if consolation else None
    consolation_done = (
        main.done
        and not pool
        and not consolation_playing
        and (final_cons is None or final_cons.status not in unsettled)
    )
    return State(
        main_round=main_round,
        main_open=main.open,
        main_survivors=main.survivors,
        main_winners=main.winners,
        main_done=main.done,
        consolation=consolation,
        consolation_playing=consolation_playing,
        pool=pool,
        consolation_winners=consolation_winners,
        consolation_done=consolation_done,
        grand_final=grand_final,
    )


# The waiting players the rounds page names (the others are counted).
POOL_NAMED = 60


def pool_players(tournament: Tournament, limit: int | None = None) -> list[PoolEntry]:
    """Who waits in the consolation pool, the longest waiting first (the first ``limit``)."""
    waiting = (
        PoolEntry.objects.filter(tournament=tournament, left_at__isnull=True)
        .select_related("player")
        .order_by("joined_at", "pk")
    )
    return list(waiting if limit is None else waiting[:limit])


@dataclass(frozen=True)
class _Cuts:
    """The life bands cut so far: each player's bands left, and for those out, when and where they went out."""

    remaining: dict[int, int]
    out_sequence: dict[int, int]  # id -> the game that cut the last band (later out: higher)
    went_out: dict[int, str]  # id -> "stage:stage number"


def _cuts(tournament: Tournament, players: Iterable[int]) -> _Cuts:
    """Count the band cuts of valid games, in the order they were played, down to each player's last band."""
    cuts = (
        LedgerEntry.objects.filter(tournament=tournament, kind=enums.LedgerKind.BAND_CUT)
        .exclude(game__status=GameStatus.VOIDED)
        .values_list("player_id", "game_id", "table__round__stage", "table__round__stage_number")
    )
    out_sequence: dict[int, int] = {}
    went_out: dict[int, str] = {}
    remaining = dict.fromkeys(players, tournament.life_bands)
    for pid, game_id, stage, stage_number in cuts.order_by("game_id"):
        if pid not in remaining:
            continue
        remaining[pid] -= 1
        if remaining[pid] <= 0:
            out_sequence[pid] = game_id
            went_out[pid] = f"{stage}:{stage_number}"
    return _Cuts(remaining=remaining, out_sequence=out_sequence, went_out=went_out)


@dataclass(frozen=True)
class _Live:
    """While play goes on: the chips at each latest table, and who qualified for a grand final not seated yet."""

    chips: dict[int, int]
    qualified: dict[int, int | None]


def _live(tournament: Tournament, *, grand_final_seated: bool) -> _Live:
    """Read each player's latest seat (and, before the grand final is seated, the pool's qualified)."""
    chips: dict[int, int] = {}
    qualified: dict[int, int | None] = {}
    # Each player's latest seat (a player's seats are created one seating after another:
    # the highest pk): the chips there, and whether it was a final table they survived
    # (qualified for a grand final not seated yet).
    latest = (
        Seat.objects.filter(table__round__tournament=tournament)
        .values("player_id")
        .annotate(last=Max("pk"))
        .values("last")
    )
    for pid, held, is_final, advances in Seat.objects.filter(pk__in=latest).values_list(
        "player_id", "chips", "table__is_final", "advances"
    ):
        chips[pid] = held
        if not grand_final_seated and is_final and advances:
            qualified[pid] = None
    if not grand_final_seated:
        # The pool's last players who went through without a table.
        pool_qualified = PoolEntry.objects.filter(tournament=tournament, left_reason=PoolEntry.Left.QUALIFIED)
        qualified.update(dict.fromkeys(pool_qualified.values_list("player_id", flat=True)))
    return _Live(chips=chips, qualified=qualified)


def ranking(tournament: Tournament) -> list[Standing]:
    """Everyone by what the format counts (``rules.rank_players``): grand finalists first (still
    in it, then by place), then still in the main round, bands left, chips at the latest table,
    who went out later, and the start number last. After the grand final: its places, then
    later out ranks higher. Five queries (four once the tournament is finished)."""
    players = ranked_players(tournament, [enums.PlayerStatus.CHECKED_IN])
    gf = Round.objects.filter(tournament=tournament, stage=enums.Stage.GRAND_FINAL).first()
    finalists: dict[int, int | None] = {}
    if gf is not None:
        finalists = dict(Seat.objects.filter(table__round=gf).values_list("player_id", "place"))
    cuts = _cuts(tournament, players)
    remaining, went_out = cuts.remaining, cuts.went_out
    chips: dict[int, int] = {}
    if tournament.status != enums.TournamentStatus.FINISHED:
        live = _live(tournament, grand_final_seated=gf is not None)
        chips = live.chips
        finalists.update(live.qualified)
    in_main = {pid for pid, left in remaining.items() if left >= tournament.life_bands}
    start = {pid: p.start_number or 0 for pid, p in players.items()}
    entries = life_bands.rank_players(
        start, finalists, cuts.out_sequence, in_main=in_main, bands=remaining, chips=chips
    )
    return [
        Standing.of(
            e,
            players[e.player_id],
            RULE_LABELS,
            reached=_reached(
                e.player_id in finalists, went_out.get(e.player_id, ""), remaining.get(e.player_id, 0), tournament
            )
            + _counts(e, finalists, remaining, chips, grand_final_seated=gf is not None),
            reached_stage=enums.Stage.GRAND_FINAL
            if e.player_id in finalists
            else went_out.get(e.player_id, "").split(":", 1)[0],
        )
        for e in entries
    ]


def _counts(
    entry: life_bands.RankEntry,
    finalists: dict[int, int | None],
    bands: dict[int, int],
    chips: dict[int, int],
    *,
    grand_final_seated: bool,
) -> str:
    """While play goes on, what ranked a player still in: " · 2 life bands · 1 chip" (in the
    grand final only the chips count); "" for a player out or placed, a finalist waiting for the
    grand final's seating, and once finished."""
    pid = entry.player_id
    if not chips or entry.out_sequence is not None or finalists.get(pid) is not None:
        return ""
    chip_words = ngettext("%(count)s chip", "%(count)s chips", chips.get(pid, 0)) % {"count": chips.get(pid, 0)}
    if pid in finalists:
        return f" · {chip_words}" if grand_final_seated else ""
    band_words = ngettext("%(count)s life band", "%(count)s life bands", bands.get(pid, 0)) % {
        "count": bands.get(pid, 0)
    }
    return f" · {band_words} · {chip_words}"


def _reached(finalist: bool, went_out: str, bands: int, tournament: Tournament) -> Label:
    if finalist:
        return _("Grand final")
    if went_out.startswith(enums.Stage.MAIN):
        return _("Out in the main round")
    if went_out:
        return _("Out in the consolation round")
    if bands >= tournament.life_bands:
        return _("In the main round")
    return _("In the consolation round")


def rounds_context(tournament: Tournament, rounds: list[Round]) -> dict[str, Any]:
    """Main round, consolation pool and grand final side by side, with where everyone is: the
    pool's longest waiting (``POOL_NAMED``) and its size, the main round's winners by name."""
    where = state(tournament)
    winners = {p.pk: p for p in Player.objects.filter(pk__in=where.main_winners)} if where.main_winners else {}
    return {
        "state": where,
        "pool": pool_players(tournament, POOL_NAMED),
        "pool_count": PoolEntry.objects.filter(tournament=tournament, left_at__isnull=True).count(),
        "main_winners": [winners[pid] for pid in where.main_winners if pid in winners],
        "main_winner_names": [winners[pid].name for pid in where.main_winners if pid in winners],
        "main_rounds": [r for r in rounds if r.stage == enums.Stage.MAIN],
        "consolation_rounds": [r for r in rounds if r.stage == enums.Stage.CONSOLATION],
        "grand_final_rounds": [r for r in rounds if r.stage == enums.Stage.GRAND_FINAL],
        # Decided tables whose players move on only at their close (automatic advancement, a
        # second confirmation): the organiser sees what the next step waits for.
        "awaiting_close": list(
            Table.objects.filter(
                round__tournament=tournament, round__status=enums.RoundStatus.RUNNING, status=enums.TableStatus.DECIDED
            )
            .select_related("round")
            .order_by("number", "pk")[:POOL_NAMED]
        )
        if moves_on_at_close(tournament)
        else [],
    }


def _elapsed(started_at: Any) -> str:
    """Minutes:seconds since the table started, as the timer shows it."""
    if started_at is None:
        return ""
    seconds = max(int((timezone.now() - started_at).total_seconds()), 0)
    return f"{seconds // 60}:{seconds % 60:02d}"


def table_context(tournament: Tournament, view: Any) -> dict[str, Any]:
    """Chips and bands per seat, the 15-minute timer and sharp play (not in the grand final)."""
    table = view.table
    grand_final = table.round.stage == enums.Stage.GRAND_FINAL
    bands = bands_left(tournament, [seat.player_id for seat in view.seats])
    sharp_at = None
    if not grand_final and table.started_at:
        sharp_at = table.started_at + timedelta(minutes=tournament.sharp_play_minutes)
    return {
        "grand_final": grand_final,
        "bands": [(seat, bands.get(seat.player_id, 0)) for seat in view.seats],
        "sharp_at": sharp_at,
        "sharp_now": bool(sharp_at and timezone.now() >= sharp_at),
        "elapsed": _elapsed(table.started_at),
        "survivors": [seat.player.name for seat in view.seats if seat.out_order is None],
        "table_links": [(reverse("tournament:half_tracker", args=[tournament.pk, table.pk]), _("Half tracker"))],
        # A decided table waits for its close before its players move on (automatic advancement
        # or a second confirmation): the referee's page says so, and that the undo stays until then.
        "moves_on_at_close": moves_on_at_close(tournament) and not grand_final,
        "went_on": went_on(tournament, table, view.seats) if table.status == enums.TableStatus.CLOSED else [],
    }


def went_on(tournament: Tournament, table: Table, seats: list[Seat]) -> list[tuple[str, str]]:
    """Where the players of a closed table are now, for its referee: (where, names) per place, in
    the order of the seats: a table seated after it ("Main round 2 · Table 1"), or the round they
    wait for ("Main round 2 · waiting"); players out of the tournament are not named. The grand
    final's players are named nowhere (the tournament is over). Three queries."""
    if table.round.stage == enums.Stage.GRAND_FINAL:
        return []
    players = {seat.player_id: seat.player.name for seat in seats}
    where: dict[int, str] = {}
    for pid, stage, stage_number, number, is_duel, place in (
        Seat.objects.filter(player_id__in=players, table__round__tournament=tournament, table_id__gt=table.pk)
        .order_by("table_id")
        .values_list(
            "player_id",
            "table__round__stage",
            "table__round__stage_number",
            "table__number",
            "table__is_duel",
            "table__duel_for_place",
        )
    ):
        where[pid] = naming.table_name(
            naming.round_name(stage, stage_number), number, is_duel=is_duel, duel_for_place=place
        )
    word = pgettext("where do I sit: a player between rounds", "waiting")
    ids = list(players)
    for pid, _name, stage, number in waiting(tournament, _pool_rows(tournament, ids), ids):
        if pid in players and pid not in where:
            where[pid] = f"{naming.round_name(stage, number)} · {word}"
    places: dict[str, list[str]] = {}
    for pid, name in players.items():
        if pid in where:
            places.setdefault(where[pid], []).append(name)
    return [(place, ", ".join(names)) for place, names in places.items()]


def public_extras(tournament: Tournament) -> PublicExtras:
    """Bands left per player (from the band cuts), the waiting pool and the sharp-play minutes."""
    cuts = dict(
        LedgerEntry.objects.filter(tournament=tournament, kind=enums.LedgerKind.BAND_CUT)
        .exclude(game__status=GameStatus.VOIDED)
        .values_list("player_id")
        .annotate(n=Count("pk"))
        .values_list("player_id", "n")
    )
    # Who waits, and (in the same query) who went from the pool to the grand final without
    # another table (the phone page tells them to wait for the grand final's seating).
    pool_rows = _pool_rows(tournament)
    return PublicExtras(
        bands={pid: max(tournament.life_bands - n, 0) for pid, n in cuts.items()},
        default_bands=tournament.life_bands,
        pool=[(row.start_number, row.name) for row in pool_rows if row.waits],
        qualified=frozenset(row.player_id for row in pool_rows if not row.waits),
        sharp_minutes=tournament.sharp_play_minutes,
        sharp_stages=(enums.Stage.MAIN, enums.Stage.CONSOLATION),
        waiting=waiting(tournament, pool_rows),
    )


@dataclass(frozen=True)
class _PoolRow:
    start_number: int | None
    name: str
    player_id: int
    waits: bool  # still in the pool (else: reached the grand final from it)
    final_seated: bool  # the grand final is seated


def _pool_rows(tournament: Tournament, players: list[int] | None = None) -> list[_PoolRow]:
    """The waiting pool, longest waiting first, and who reached the grand final from it, with
    whether the grand final is seated (one query)."""
    rows = PoolEntry.objects.filter(
        Q(left_at__isnull=True) | Q(left_reason=PoolEntry.Left.QUALIFIED), tournament=tournament
    )
    if players is not None:
        rows = rows.filter(player_id__in=players)
    final = Round.objects.filter(tournament=tournament, stage=enums.Stage.GRAND_FINAL)
    return [
        _PoolRow(*row)
        for row in rows.annotate(
            waits=ExpressionWrapper(Q(left_at__isnull=True), output_field=BooleanField()), final_seated=Exists(final)
        )
        .order_by("joined_at", "pk")
        .values_list("player__start_number", "player__name", "player_id", "waits", "final_seated")
    ]


def waiting(
    tournament: Tournament, pool: list[_PoolRow], players: list[int] | None = None
) -> list[tuple[int, str, str, int]]:
    """Who is between rounds, at no playing table, and the round they wait for: (player id, name,
    stage, stage number). The survivors of the last main round's finished tables wait for the
    next main round (those of its final table for the grand final); the pool (``pool``,
    ``_pool_rows``) for the consolation round; the consolation round's winners for the grand
    final. Nobody once the grand final is seated (or the tournament is over). ``players``: only
    these. One query (none after the end)."""
    if tournament.status == enums.TournamentStatus.FINISHED or any(row.final_seated for row in pool):
        return []
    final = enums.Stage.GRAND_FINAL.value
    lines = [
        (row.player_id, row.name, enums.Stage.CONSOLATION.value if row.waits else final, 1)
        for row in pool
        if row.waits or not row.final_seated
    ]
    main = Round.objects.filter(tournament=tournament, stage=enums.Stage.MAIN).order_by("-number").values("pk")[:1]
    seats = Seat.objects.filter(
        Q(table__round_id__in=main) | Q(table__round__stage=enums.Stage.CONSOLATION, table__is_final=True),
        table__round__tournament=tournament,
        advances=True,
        out_order__isnull=True,
    ).exclude(table__status=enums.TableStatus.PLAYING)
    if players is not None:
        seats = seats.filter(player_id__in=players)
    no_final = ~Exists(Round.objects.filter(tournament=tournament, stage=enums.Stage.GRAND_FINAL))
    for pid, name, is_final, stage, number in (
        seats.filter(no_final)
        .order_by("table__number", "position")
        .values_list(
            "player_id", "player__name", "table__is_final", "table__round__stage", "table__round__stage_number"
        )
    ):
        if stage == enums.Stage.MAIN and not is_final:
            lines.append((pid, name, enums.Stage.MAIN.value, number + 1))
        else:
            lines.append((pid, name, final, 1))
    return lines


def default_checklist() -> list[str]:
    return [_("Entry fee paid"), _("Own dice and cup")]


def counts_card_points(table: Table) -> bool:
    """Schocken counts lids, not cards."""
    return False


def expected_plan(tournament: Tournament, players: int) -> day_plan.ExpectedPlan:
    """The main rounds the planner would seat for ``players``, the consolation beside them and the
    grand final (``tournament.day_plan``)."""
    return day_plan.life_bands_plan(
        players,
        preferred=tournament.table_size,
        largest=tournament.table_size_max,
        bands=tournament.life_bands,
        chips=tournament.chips_per_table,
        chips_grand_final=tournament.chips_grand_final,
    )


def expected_sharp_play(tournament: Tournament) -> int | None:
    """Every table but the grand final plays one half only after ``sharp_play_minutes``."""
    return tournament.sharp_play_minutes


# The stage's weight in the round's key: main rounds, then the consolation round, then the grand final.
_STAGE_WEIGHT = 1000


def rating_order(table: RatedTable) -> RatedOrder | None:
    """The season's rating of a life-bands table: the order of going out, the last out best, the
    survivors tied at the top. The round's key puts the stage first (the consolation round runs
    beside later main rounds; see ``season.rating``)."""
    stages = life_bands.SPEC.stages
    stage = stages.index(table.stage) if table.stage in stages else len(stages)
    seats = [rating.LifeBandsSeat(seat.person, seat.out_order) for seat in table.seats]
    return RatedOrder(stage * _STAGE_WEIGHT + table.round_number, rating.life_bands_order(seats))
