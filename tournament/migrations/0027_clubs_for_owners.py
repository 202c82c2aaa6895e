"""A club for each organiser who owns tournaments made before clubs (issue 33).

The owner of a tournament is the user who created it (``created_by``), else its first organiser
(``StaffRole``, lowest id). Each owner gets one club, named after them (their full name, else their
user name; the organiser renames it on the register page), with them as its organiser, and their
tournaments join it. A tournament with neither creator nor organiser keeps no club: nobody could be
asked which register it belongs to. No people are added: the register fills from the next
registrations (and "Copy players from…" links an earlier event's players as it copies them).
"""

from django.conf import settings
from django.db import migrations


def owner_of(tournament, first_organiser):
    return tournament.created_by_id or first_organiser.get(tournament.pk)


def clubs_for_owners(apps, schema_editor):
    Tournament = apps.get_model("tournament", "Tournament")
    StaffRole = apps.get_model("tournament", "StaffRole")
    Club = apps.get_model("tournament", "Club")
    User = apps.get_model(settings.AUTH_USER_MODEL)
    first_organiser = {}
    for tournament_id, user_id in StaffRole.objects.filter(role="organiser").order_by("pk").values_list(
        "tournament_id", "user_id"
    ):
        first_organiser.setdefault(tournament_id, user_id)
    by_owner = {}
    for tournament in Tournament.objects.filter(club__isnull=True).only("pk", "created_by_id"):
        owner = owner_of(tournament, first_organiser)
        if owner is not None:
            by_owner.setdefault(owner, []).append(tournament.pk)
    for user in User.objects.filter(pk__in=by_owner).order_by("pk"):
        full = f"{user.first_name} {user.last_name}".strip()
        club = Club.objects.create(name=(full or user.username)[:200])
        club.organisers.add(user)
        Tournament.objects.filter(pk__in=by_owner[user.pk]).update(club=club)


class Migration(migrations.Migration):
    dependencies = [("tournament", "0026_club_register")]

    operations = [migrations.RunPython(clubs_for_owners, migrations.RunPython.noop)]
