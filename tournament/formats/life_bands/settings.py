"""Life bands' own settings: stored in ``Tournament.format_settings``, read and written as
``tournament.chips_per_table`` etc. (``models.FormatSetting``). Each field's ``initial`` is the
setting's default; the settings page shows these fields (``forms.TournamentSettingsForm``)."""

from __future__ import annotations

from django import forms
from django.db import models
from django.utils.translation import gettext_lazy as _


class StreetRule(models.TextChoices):
    """When a Schocken "Straße" counts (values: ``games.rules.schocken.StreetRule``)."""

    ANY_ROLL = "any_roll", _("on any roll (all three dice in one roll)")
    FIRST_ROLL = "first_roll", _("only on the first roll")


class SettingsForm(forms.Form):
    life_bands = forms.IntegerField(label=_("life bands per player"), initial=2, min_value=1, max_value=5)
    # Each player gets this many chips at every new table (the rules: 2 each), not a table's total.
    chips_per_table = forms.IntegerField(
        label=_("chips per player"),
        initial=2,
        min_value=1,
        max_value=10,
        help_text=_("Each player gets this many chips at every table of the main and consolation rounds."),
    )
    chips_grand_final = forms.IntegerField(label=_("chips in the grand final"), initial=3, min_value=1, max_value=10)
    sharp_play_minutes = forms.IntegerField(
        label=_("minutes until sharp play"), initial=15, min_value=1, max_value=32767
    )
    schocken_street = forms.ChoiceField(
        label=_("Schocken: a Straße counts"),
        choices=StreetRule.choices,
        initial=StreetRule.ANY_ROLL.value,
        help_text=_(
            "The rules: “Straße: zählt nur in einem Wurf” (counts only in one throw). Read as all three dice "
            "in one roll, or as the first roll only; otherwise the dice count as a simple throw."
        ),
    )
