"""Choices shared by models, forms and the pure core.

The values are stable slugs stored in the database; labels are translated.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Game(models.TextChoices):
    UNO = "uno", _("UNO")
    SCHOCKEN = "schocken", _("Schocken")


class Format(models.TextChoices):
    KNOCKOUT = "knockout", _("Knockout, lucky losers, points final")
    LIFE_BANDS = "life_bands", _("Life bands and chips")
    POINTS = "points", _("Penalty points")


class TournamentStatus(models.TextChoices):
    SETUP = "setup", _("Setting up")
    REGISTRATION = "registration", _("Registration open")
    RUNNING = "running", _("Play started")
    FINISHED = "finished", _("Finished")


class PlayerStatus(models.TextChoices):
    REGISTERED = "registered", _("Registered")
    WAITING = "waiting", _("Waiting list")
    CHECKED_IN = "checked_in", _("Checked in")
    WITHDRAWN = "withdrawn", _("Withdrawn")
    NO_SHOW = "no_show", _("No-show")


class SeatNeed(models.TextChoices):
    """Why a player keeps one table (``Player.fixed_table``): said in words on every printout."""

    NONE = "", _("No particular need")
    WHEELCHAIR = "wheelchair", _("Wheelchair access")
    HEARING = "hearing", _("Hearing")
    SIGHT = "sight", _("Sight")
    OTHER = "other", _("Other need")


class Role(models.TextChoices):
    ORGANISER = "organiser", _("Organiser")
    DESK = "desk", _("Desk")
    REFEREE = "referee", _("Referee")


class Stage(models.TextChoices):
    MAIN = "main", _("Main round")
    LUCKY_LOSER = "lucky_loser", _("Lucky-loser round")
    CONSOLATION = "consolation", _("Consolation round")
    FINAL = "final", _("Final")
    GRAND_FINAL = "grand_final", _("Grand final")
    # Points format: a game at one table that orders players tied on a place (``points.rules``).
    PLAYOFF = "playoff", _("Play-off")


class RoundStatus(models.TextChoices):
    PLANNED = "planned", _("Planned")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class TableStatus(models.TextChoices):
    PLAYING = "playing", _("Playing")
    DECIDED = "decided", _("Decided")
    CLOSED = "closed", _("Closed")


class LedgerKind(models.TextChoices):
    CHIPS_GIVEN = "chips_given", _("Chips handed out")
    CHIP_LOST = "chip_lost", _("Chip handed in")
    BAND_CUT = "band_cut", _("Life band cut")
    CORRECTION = "correction", _("Correction")


class TableEntry(models.TextChoices):
    """Who records a table's games (``Tournament.table_entry``): referees only, the players at the
    table (a table-mate confirms each entry: ``passes.table_entry``), or both."""

    REFEREES = "referees", _("Referees only")
    PLAYERS = "players", _("Players at the table")
    BOTH = "both", _("Referees and players")


class RefereeCall(models.TextChoices):
    """Why a table called a referee (``Table.referee_call_reason``)."""

    ASKED = "asked", _("Asked for a referee")
    DISAGREEMENT = "disagreement", _("Disagreement about an entry")
