"""Every format by its stable slug (the value stored in ``Tournament.format``).

Adding a format: write its package (``tournament/formats/<slug>/``: rules,
services, reads, settings, plugin, its templates under ``templates/formats/<slug>/``) and
add its record to ``FORMATS`` below.

Each format's own settings (its ``settings.py`` form) become attributes of ``Tournament``
here (``install_settings``: one ``models.FormatSetting`` per declared setting), stored in
``Tournament.format_settings``: a format adds no column.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.utils.translation import gettext_lazy as _

from tournament.formats.knockout.plugin import FORMAT as KNOCKOUT
from tournament.formats.life_bands.plugin import FORMAT as LIFE_BANDS
from tournament.formats.points.plugin import FORMAT as POINTS
from tournament.formats.record import Format
from tournament.models import FormatSetting, Tournament

FORMATS: dict[str, Format] = {record.slug: record for record in (KNOCKOUT, LIFE_BANDS, POINTS)}


def get(slug: str) -> Format:
    """The record of the format ``slug`` (KeyError for an unknown one)."""
    return FORMATS[slug]


def of(tournament: Tournament) -> Format:
    """The record of the tournament's format."""
    return FORMATS[tournament.format]


def for_game(game: str) -> list[Format]:
    """The formats a game is played with."""
    return [record for record in FORMATS.values() if game in record.games]


# --- the formats' own settings ------------------------------------------------------------


def declared_settings(formats: Mapping[str, Format] | None = None) -> dict[str, tuple[Format, forms.Field]]:
    """Every format's own settings by name: the format declaring it and its form field.
    ImproperlyConfigured when two formats declare one name or a name is taken on ``Tournament``
    (a field, a property, a method)."""
    declared: dict[str, tuple[Format, forms.Field]] = {}
    for record in (FORMATS if formats is None else formats).values():
        for name, field in record.settings_form.base_fields.items():
            if name in declared:
                raise ImproperlyConfigured(
                    f"The formats {declared[name][0].slug} and {record.slug} both declare the setting {name!r}."
                )
            taken = inspect.getattr_static(Tournament, name, None)
            if taken is not None and not isinstance(taken, FormatSetting):
                raise ImproperlyConfigured(f"The setting {name!r} of {record.slug} is taken on Tournament.")
            declared[name] = (record, field)
    return declared


def install_settings(formats: Mapping[str, Format] | None = None) -> None:
    """Put one ``FormatSetting`` on ``Tournament`` per declared setting (its default the field's
    ``initial``) and take off those no format declares any more. Run when this module is
    imported (and by the app's ``ready``); again after a format is added at run time (a test)."""
    declared = declared_settings(formats)
    for name in Tournament.format_setting_names() - set(declared):
        delattr(Tournament, name)
    for name, (_record, field) in declared.items():
        installed = inspect.getattr_static(Tournament, name, None)
        if not isinstance(installed, FormatSetting) or installed.default != field.initial:
            setattr(Tournament, name, FormatSetting(name, field.initial))
    # Django's ``Model.__init__`` takes property names as keywords; it caches their list.
    Tournament._meta.__dict__.pop("_property_names", None)


def settings_from_columns(slug: str, columns: Mapping[str, Any]) -> dict[str, Any]:
    """The ``format_settings`` of a tournament of format ``slug`` whose settings were columns
    (``columns``, e.g. a backup's fields from before migration 0022), as the migration moved them:
    every value of its own format, another format's only where it is not the default."""
    return {
        name: columns[name]
        for name, (record, field) in declared_settings().items()
        if name in columns and (record.slug == slug or columns[name] != field.initial)
    }


def validate_format_settings(values: Any) -> dict[str, Any]:
    """``values`` (a tournament's ``format_settings``) checked against the formats' settings
    forms: every name declared by a format, every value valid for its field. Returns the cleaned
    values; ValidationError by name otherwise. A tournament keeps the values of another format's
    settings (set before its format changed): they are checked by the format declaring them."""
    if not isinstance(values, dict):
        raise ValidationError(_("The format settings are not a mapping of names to values."))
    declared = declared_settings()
    cleaned: dict[str, Any] = {}
    errors: dict[str, list[str]] = {}
    for name, value in values.items():
        if name not in declared:
            errors[name] = [str(_("No format has the setting %(name)s.") % {"name": name})]
            continue
        try:
            cleaned[name] = declared[name][1].clean(value)
        except ValidationError as error:
            errors[name] = error.messages
    if errors:
        raise ValidationError(errors)
    return cleaned


install_settings()
