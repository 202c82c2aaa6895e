from django.contrib import admin

from games import models


class GameScoreInline(admin.TabularInline):
    model = models.GameScore
    extra = 0
    raw_id_fields = ["player"]


@admin.register(models.Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["table", "number", "status", "winner", "loser", "entered_at", "entered_by"]
    list_filter = ["status"]
    raw_id_fields = ["table", "winner", "loser", "supersedes"]
    inlines = [GameScoreInline]
