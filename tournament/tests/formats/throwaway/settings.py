"""The throwaway format's own setting, as a fourth format declares its settings: a form whose
fields are the settings (their defaults the ``initial``), stored in ``Tournament.format_settings``."""

from __future__ import annotations

from django import forms


class SettingsForm(forms.Form):
    first_to = forms.IntegerField(label="Games to win a table", initial=2, min_value=1, max_value=9)
