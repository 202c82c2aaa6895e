"""Staff: who has which role in a tournament.

Contract: ``tournament.writes``.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from tournament import enums
from tournament.errors import ServiceError
from tournament.models import StaffRole, Tournament
from tournament.writes import User, audit, bump, lock_tournament


def add_staff(*, tournament: Tournament, actor: User, username: str, role: str, password: str = "") -> StaffRole:
    """Give a user a role; creates the account when a password is given for a new name."""
    username = username.strip()
    if role not in enums.Role.values:
        raise ServiceError(_("Unknown role."))
    if not username:
        raise ServiceError(_("Enter a user name."))
    user_model = get_user_model()
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        user = user_model.objects.filter(username=username).first()
        if user is None:
            if len(password) < 8:
                raise ServiceError(
                    _("There is no user “%(name)s”. Give a password of at least 8 characters to create one.")
                    % {"name": username}
                )
            user = user_model.objects.create_user(username=username, password=password)
        if StaffRole.objects.filter(tournament=locked, user=user, role=role).exists():
            raise ServiceError(_("%(name)s already has this role.") % {"name": username})
        staff = StaffRole.objects.create(tournament=locked, user=user, role=role)
        bump(locked)
        audit(locked, actor, "staff_added", user=username, role=role)
    return staff


def remove_staff(*, tournament: Tournament, actor: User, staff_id: int) -> None:
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        staff = StaffRole.objects.filter(tournament=locked, pk=staff_id).select_related("user").first()
        if staff is None:
            raise ServiceError(_("This role does not exist."))
        if (
            staff.role == enums.Role.ORGANISER
            and StaffRole.objects.filter(tournament=locked, role=enums.Role.ORGANISER).count() == 1
        ):
            raise ServiceError(_("A tournament keeps at least one organiser."))
        staff.delete()
        bump(locked)
        audit(locked, actor, "staff_removed", user=staff.user.get_username(), role=staff.role)
