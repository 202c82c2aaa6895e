"""Public pages under an unguessable key (``Tournament.public_key``) and ``Tournament.listed``.

The key is added nullable, filled row by row with its own random value (a field default
would give every existing row the same one), and only then made unique and required.
"""

import secrets

from django.db import migrations, models

import tournament.models


def fill_public_keys(apps, schema_editor):  # type: ignore[no-untyped-def]
    """A fresh key per existing tournament (as ``tournament.models.new_public_key``, frozen here)."""
    Tournament = apps.get_model("tournament", "Tournament")
    taken: set[str] = set()
    for row in Tournament.objects.using(schema_editor.connection.alias).filter(public_key__isnull=True):
        key = ""
        while not key or key.isdecimal() or key in taken:
            key = secrets.token_urlsafe(12)
        taken.add(key)
        row.public_key = key
        row.save(update_fields=["public_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0007_rule_settings"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="listed",
            field=models.BooleanField(
                default=True,
                help_text="Listed: anyone who knows the tournament's number can open its public pages. "
                "Unlisted: only the public link (QR code) opens them.",
                verbose_name="listed",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="public_key",
            field=models.CharField(editable=False, max_length=32, null=True, verbose_name="public key"),
        ),
        migrations.RunPython(fill_public_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="tournament",
            name="public_key",
            field=models.CharField(
                default=tournament.models.new_public_key,
                editable=False,
                max_length=32,
                unique=True,
                verbose_name="public key",
            ),
        ),
    ]
