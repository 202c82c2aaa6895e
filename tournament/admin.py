from django.contrib import admin

from tournament import models


class ChecklistItemInline(admin.TabularInline):
    model = models.ChecklistItem
    extra = 0


class RegistrationWindowInline(admin.TabularInline):
    model = models.RegistrationWindow
    extra = 0


class StaffRoleInline(admin.TabularInline):
    model = models.StaffRole
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(models.Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "venue", "game", "format", "status", "capacity"]
    list_filter = ["game", "format", "status"]
    search_fields = ["name", "venue"]
    date_hierarchy = "date"
    inlines = [ChecklistItemInline, RegistrationWindowInline, StaffRoleInline]


class PlayerCheckInline(admin.TabularInline):
    model = models.PlayerCheck
    extra = 0
    readonly_fields = ["checked_at", "checked_by"]


class CheckInInline(admin.TabularInline):
    model = models.CheckIn
    extra = 0
    readonly_fields = ["checked_in_at", "checked_in_by", "override", "open_items", "cancelled_at"]
    can_delete = False


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "start_number", "club", "status", "tournament"]
    list_filter = ["status", "tournament"]
    search_fields = ["name", "club", "contact"]
    list_select_related = ["tournament"]
    inlines = [PlayerCheckInline, CheckInInline]


@admin.register(models.StartNumberDraw)
class StartNumberDrawAdmin(admin.ModelAdmin):
    list_display = ["tournament", "seed", "algorithm", "drawn_at", "drawn_by"]
    readonly_fields = ["tournament", "seed", "algorithm", "drawn_at", "drawn_by", "result"]


class TableInline(admin.TabularInline):
    model = models.Table
    extra = 0
    show_change_link = True


@admin.register(models.Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "stage", "status", "seed", "seating_algorithm"]
    list_filter = ["stage", "status"]
    inlines = [TableInline]


class SeatInline(admin.TabularInline):
    model = models.Seat
    extra = 0
    raw_id_fields = ["player"]


@admin.register(models.Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["round", "number", "status", "version"]
    list_filter = ["status"]
    inlines = [SeatInline]


@admin.register(models.LedgerEntry)
class LedgerEntryAdmin(admin.ModelAdmin):
    list_display = ["created_at", "tournament", "player", "kind", "chips", "bands"]
    list_filter = ["kind"]
    raw_id_fields = ["player", "table", "game"]


@admin.register(models.AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["created_at", "tournament", "actor", "action"]
    list_filter = ["action"]
    readonly_fields = ["created_at", "tournament", "actor", "action", "detail"]

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False
