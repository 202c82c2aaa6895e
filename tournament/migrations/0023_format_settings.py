"""Each format's own settings move from 19 columns of ``Tournament`` into one JSON column,
``format_settings`` (declared by each format's ``settings.py``, read as ``tournament.<name>``
through ``models.FormatSetting``).

Every value of the tournament's own format is copied; another format's value only where it
differs from the default (a tournament whose format changed keeps what was set). Backwards, the
columns come back with their defaults and take the stored values."""

from django.db import migrations, models

# The 19 settings as they were on 2026-11-27: name -> (format, default). Frozen here, not read
# from the formats, so the migration means the same whatever the formats declare later.
SETTINGS = {
    "wins_needed": ("knockout", 3),
    "wins_needed_large_table": ("knockout", 2),
    "final_size": ("knockout", 3),
    "final_points_target": ("knockout", 500),
    "final_target_kind": ("knockout", "points"),
    "final_wins_target": ("knockout", 3),
    "duel_wins_needed": ("knockout", 1),
    "life_bands": ("life_bands", 2),
    "chips_per_table": ("life_bands", 2),
    "chips_grand_final": ("life_bands", 3),
    "sharp_play_minutes": ("life_bands", 15),
    "schocken_street": ("life_bands", "any_roll"),
    "rounds_planned": ("points", 4),
    "games_per_round": ("points", 3),
    "round_time_limit_minutes": ("points", None),
    "points_tie_breaks": ("points", "games_won,best_round"),
    "points_tie_places": ("points", "podium"),
    "points_tie_resolution": ("points", "playoff"),
    "points_missed_rounds": ("points", "round_highest"),
}


def settings_of(fmt, columns):
    """The ``format_settings`` of a tournament of format ``fmt`` whose columns hold ``columns``."""
    return {
        name: columns[name]
        for name, (owner, default) in SETTINGS.items()
        if owner == fmt or columns[name] != default
    }


def columns_into_json(apps, schema_editor):
    tournament_model = apps.get_model("tournament", "Tournament")
    for tournament in tournament_model.objects.using(schema_editor.connection.alias).iterator():
        columns = {name: getattr(tournament, name) for name in SETTINGS}
        tournament.format_settings = {**settings_of(tournament.format, columns), **tournament.format_settings}
        tournament.save(update_fields=["format_settings"])


def json_into_columns(apps, schema_editor):
    tournament_model = apps.get_model("tournament", "Tournament")
    for tournament in tournament_model.objects.using(schema_editor.connection.alias).iterator():
        stored = tournament.format_settings or {}
        for name, (_owner, default) in SETTINGS.items():
            setattr(tournament, name, stored.get(name, default))
        tournament.save(update_fields=list(SETTINGS))


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0022_player_passes"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="format_settings",
            field=models.JSONField(blank=True, default=dict, verbose_name="format settings"),
        ),
        migrations.RunPython(columns_into_json, json_into_columns),
        *(migrations.RemoveField(model_name="tournament", name=name) for name in SETTINGS),
    ]
