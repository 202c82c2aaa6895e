"""Template helpers for the desk pages (no queries: they read prefetched data)."""

from django import template

from tournament.models import ChecklistItem, Player

register = template.Library()


@register.simple_tag
def has_check(player: Player, item: ChecklistItem) -> bool:
    """Whether ``item`` is ticked for ``player``, from the prefetched checks."""
    return any(check.item_id == item.pk for check in player.checks.all())


@register.simple_tag
def open_count(player: Player, items: list[ChecklistItem]) -> int:
    """How many of the checklist ``items`` are not ticked for ``player``, from the prefetched checks."""
    ticked = {check.item_id for check in player.checks.all()}
    return sum(1 for item in items if item.pk not in ticked)
