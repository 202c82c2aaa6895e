"""Staff: who has which role in a tournament.

Contract: ``tournament.writes``.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament import enums
from tournament.errors import ServiceError
from tournament.models import StaffRole, Tournament
from tournament.writes import User, audit, bump, lock_tournament

# The two refusals of the staff form (the views use them too, for the same words).
TAKEN = gettext_lazy("This user name is taken; choose another.")
# One message for an unknown name and a wrong password: the form must not tell which names exist.
NO_MATCH = gettext_lazy("No account matches this user name and password.")


def add_staff(*, tournament: Tournament, actor: User, username: str, role: str, password: str = "") -> StaffRole:
    """Give the account ``username`` a role in the tournament.

    With a ``password`` a new account of that name is created: a taken name is
    refused ("This user name is taken; choose another." -- a sign-up necessarily
    tells that a name exists; here only a logged-in organiser sees it), and the
    password must pass ``AUTH_PASSWORD_VALIDATORS`` (the refusal lists the
    validators' translated messages). Without a password the account must exist;
    the caller has made sure the actor may name it (the staff page asks for that
    account's password first, see ``views.organiser.staff``). Refusals change nothing.
    """
    username = username.strip()
    if role not in enums.Role.values:
        raise ServiceError(_("Unknown role."))
    if not username:
        raise ServiceError(_("Enter a user name."))
    user_model = get_user_model()
    if password:
        _check_new_password(username, password)
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        user = user_model.objects.filter(username=username).first()
        if password:
            if user is not None:
                raise ServiceError(str(TAKEN))
            try:
                with transaction.atomic():  # a savepoint: another tournament's organiser may take the name meanwhile
                    user = user_model.objects.create_user(username=username, password=password)
            except IntegrityError:
                raise ServiceError(str(TAKEN)) from None
        elif user is None:
            raise ServiceError(str(NO_MATCH))
        if StaffRole.objects.filter(tournament=locked, user=user, role=role).exists():
            raise ServiceError(_("%(name)s already has this role.") % {"name": username})
        staff = StaffRole.objects.create(tournament=locked, user=user, role=role)
        bump(locked)
        audit(locked, actor, "staff_added", user=username, role=role)
    return staff


def _check_new_password(username: str, password: str) -> None:
    """Refuse a new account's name or password that the site's validators refuse.

    The name goes through the user model's own field validators (``create_user`` does
    not run them: letters, digits and @.+-_ only). The password goes through
    ``django.contrib.auth.password_validation.validate_password`` with an unsaved user
    of that name (so "similar to the user name" is caught). The ServiceError holds the
    validators' translated messages, one sentence after another.
    """
    user_model = get_user_model()
    try:
        user_model._meta.get_field(user_model.USERNAME_FIELD).run_validators(username)
        validate_password(password, user=user_model(**{user_model.USERNAME_FIELD: username}))
    except ValidationError as error:
        raise ServiceError(" ".join(str(message) for message in error.messages)) from None


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
