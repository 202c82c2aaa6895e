from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0010_tournament_display_language"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="paused_from_round",
            field=models.PositiveIntegerField(blank=True, null=True, verbose_name="paused from round"),
        ),
    ]
