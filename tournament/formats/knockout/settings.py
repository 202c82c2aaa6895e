"""The knockout's own settings: stored in ``Tournament.format_settings``, read and written as
``tournament.wins_needed`` etc. (``models.FormatSetting``). Each field's ``initial`` is the
setting's default; the settings page shows these fields (``forms.TournamentSettingsForm``)."""

from __future__ import annotations

from django import forms
from django.db import models
from django.utils.translation import gettext_lazy as _


class FinalTarget(models.TextChoices):
    """What the knockout final is played to (values: ``knockout.rules.FINAL_TO_*``)."""

    POINTS = "points", _("points (card points of the others' hands)")
    WINS = "wins", _("a number of games won")


class SettingsForm(forms.Form):
    wins_needed = forms.IntegerField(label=_("games to win a table"), initial=3, min_value=1, max_value=20)
    wins_needed_large_table = forms.IntegerField(
        label=_("games to win a table of the largest size"), initial=2, min_value=1, max_value=20
    )
    final_size = forms.IntegerField(label=_("players in the final"), initial=3, min_value=2, max_value=8)
    final_points_target = forms.IntegerField(
        label=_("points target of the final"), initial=500, min_value=1, max_value=2147483647
    )
    final_target_kind = forms.ChoiceField(
        label=_("the final is played to"),
        choices=FinalTarget.choices,
        initial=FinalTarget.POINTS.value,
        help_text=_(
            "The rules: “first to a certain number of points (e.g. 200) or a certain number of wins”, "
            "agreed on the day with the finalists. A change applies to the seated final until its first game."
        ),
    )
    final_wins_target = forms.IntegerField(
        label=_("games to win the final"),
        initial=3,
        min_value=1,
        max_value=50,
        help_text=_("Only for a final played to wins: the first to win this many games takes the final."),
    )
    duel_wins_needed = forms.IntegerField(
        label=_("games to win a duel"),
        initial=1,
        min_value=1,
        max_value=9,
        help_text=_(
            "The rules: places 2 and 3 of the final “by points; on a tie, a direct duel”. "
            "Players tied in the final play a duel to this many won games."
        ),
    )
