"""The points format's own settings: stored in ``Tournament.format_settings``, read and written
as ``tournament.rounds_planned`` etc. (``models.FormatSetting``). Each field's ``initial`` is the
setting's default; the settings page shows these fields (``forms.TournamentSettingsForm``).
Ties and missed rounds as the organiser announces them (values: ``points.rules``)."""

from __future__ import annotations

from django import forms
from django.db import models
from django.utils.translation import gettext_lazy as _


class TieBreaks(models.TextChoices):
    """The criteria that order players tied on points, in order (``points.rules.TIE_BREAK_ORDERS``)."""

    WON_BEST = "games_won,best_round", _("more games won, then the lower best round")
    BEST_WON = "best_round,games_won", _("the lower best round, then more games won")
    WON = "games_won", _("more games won")
    BEST = "best_round", _("the lower best round")
    NONE = "", _("none: straight to the play-off or shared place")


class TiePlaces(models.TextChoices):
    PODIUM = "podium", _("the podium (places 1 to 3)")
    ALL = "all", _("every place")


class TieResolution(models.TextChoices):
    PLAYOFF = "playoff", _("a play-off game at one table")
    SHARED = "shared", _("a shared place")


class MissedRounds(models.TextChoices):
    """What a round without a seat counts (late arrival, pause, withdrawal): ``points.rules.MISSED_*``."""

    HIGHEST = "round_highest", _("the round's highest total")
    ROUND_AVERAGE = "round_average", _("the round's average total")
    OWN_AVERAGE = "own_average", _("the player's own average of the rounds played")
    RANKED_AFTER = "ranked_after", _("nothing, but ranked after everyone who played every round")


class SettingsForm(forms.Form):
    rounds_planned = forms.IntegerField(label=_("number of rounds"), initial=4, min_value=1, max_value=50)
    games_per_round = forms.IntegerField(label=_("games per table in a round"), initial=3, min_value=1, max_value=50)
    round_time_limit_minutes = forms.IntegerField(
        label=_("time limit of a round (minutes)"), initial=None, required=False, min_value=0, max_value=32767
    )
    points_tie_breaks = forms.ChoiceField(
        label=_("ties on points are broken by"),
        required=False,
        choices=TieBreaks.choices,
        initial=TieBreaks.WON_BEST.value,
        help_text=_(
            "Players with the same penalty points are ordered by these criteria. "
            "Where they are still equal, the rule below decides; the start number never does."
        ),
    )
    points_tie_places = forms.ChoiceField(
        label=_("a remaining tie is resolved on"),
        choices=TiePlaces.choices,
        initial=TiePlaces.PODIUM.value,
        help_text=_("On the other places players still tied share the place (for example 4, 4, 6)."),
    )
    points_tie_resolution = forms.ChoiceField(
        label=_("a remaining tie is resolved by"),
        choices=TieResolution.choices,
        initial=TieResolution.PLAYOFF.value,
        help_text=_(
            "Play-off: after the last round the tied players play one game at one table, entered by a referee; "
            "fewer points in it rank first. If it ties again, another play-off follows."
        ),
    )
    points_missed_rounds = forms.ChoiceField(
        label=_("a missed round counts"),
        choices=MissedRounds.choices,
        initial=MissedRounds.HIGHEST.value,
        help_text=_(
            "For late arrivals, pauses and withdrawals. Averages are rounded to whole points (halves up). "
            "Ranked after: players who missed a round come after everyone who played every round, "
            "among themselves by more rounds played, then fewer points."
        ),
    )
