"""Load a demo tournament for a first look: ``python manage.py load_demo``.

Idempotent: when the demo tournament exists already it prints one line and
changes nothing. Everything but the demo user goes through
the desk's services (``tournament.desk``), so the demo carries the same audit trail as a real
event.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from tournament import desk, enums
from tournament.models import Tournament

DEMO_NAME = "Unterwasser-UNO Staatsmeisterschaft (Demo)"
DEMO_VENUE = "Hallenbad Eggenberg"

ORGANISER = ("demo", "demo-password")
STAFF = [
    ("desk", "desk-password", enums.Role.DESK),
    ("referee", "referee-password", enums.Role.REFEREE),
]

# Stored in English; every page shows them in its reader's language (``models.KNOWN_CHECKLIST_LABELS``).
CHECKLIST = ["Diving licence (OWD)", "Medical certificate", "Entry fee paid", "Own deck checked"]
RETURNABLE = ["Own deck checked"]

# (name, club, contact, how far the desk got: "new", "some", "all", "in")
#   new  nothing ticked yet
#   some part of the checklist ticked
#   all  every item ticked, not yet checked in
#   in   every item ticked and checked in
PLAYERS = [
    ("Lukas Gruber", "TC Graz Delphine", "lukas.gruber@example.at", "in"),
    ("Anna Huber", "TC Graz Delphine", "anna.huber@example.at", "in"),
    ("Maximilian Wagner", "UWR Linz", "+43 660 1234501", "in"),
    ("Katharina Pichler", "Tauchsportclub Wien", "k.pichler@example.at", "in"),
    ("Tobias Steiner", "UNO-Freunde Kapfenberg", "tobias.steiner@example.at", "all"),
    ("Sophie Moser", "Tauchsportclub Wien", "+43 664 2345602", "all"),
    ("Florian Hofer", "UWR Linz", "florian.hofer@example.at", "all"),
    ("Lena Bauer", "Tauchclub Salzburg", "lena.bauer@example.at", "all"),
    ("Jonas Schneider", "TSV München Tauchen", "jonas.schneider@example.de", "all"),
    ("Marie Fischer", "TSV München Tauchen", "+49 151 3456703", "all"),
    ("Felix Weber", "DLRG Passau", "felix.weber@example.de", "some"),
    ("Laura Becker", "Tauchclub Salzburg", "laura.becker@example.at", "some"),
    ("Matteo Rossi", "Sub Trieste", "matteo.rossi@example.it", "some"),
    ("Giulia Bianchi", "Circolo UNO Udine", "giulia.bianchi@example.it", "some"),
    ("Alessandro Ferrari", "Sub Trieste", "+39 347 4567804", "some"),
    ("Chiara Esposito", "Circolo UNO Udine", "chiara.esposito@example.it", "new"),
    ("Lorenzo Ricci", "Gruppo Sub Bolzano", "lorenzo.ricci@example.it", "new"),
    ("Valentina Gallo", "Gruppo Sub Bolzano", "+39 340 5678905", "new"),
    ("Elias Leitner", "UNO-Freunde Kapfenberg", "elias.leitner@example.at", "new"),
    ("Johanna Eder", "", "johanna.eder@example.at", "new"),
]


class Command(BaseCommand):
    help = "Create the demo tournament with about 20 players and demo logins (only if it does not exist)."

    def handle(self, *args: Any, **options: Any) -> None:
        if Tournament.objects.filter(name=DEMO_NAME).exists():
            self.stdout.write(f"Demo tournament “{DEMO_NAME}” exists already; nothing to do.")
            return
        with transaction.atomic():
            tournament, counts = self._create()
        self._report(tournament, counts)

    def _create(self) -> tuple[Tournament, dict[str, int]]:
        """The demo's organiser, tournament, staff and players; the players counted by progress."""
        organiser = self._organiser()
        tournament = self._tournament(organiser)
        self._staff(tournament, organiser)
        return tournament, self._players(tournament)

    def _organiser(self) -> AbstractBaseUser:
        """The demo organiser's login, created when missing (the one account made outside the desk)."""
        username, password = ORGANISER
        user_model = get_user_model()
        organiser = user_model.objects.filter(username=username).first()
        if organiser is None:
            organiser = user_model.objects.create_user(username=username, password=password)
        return organiser

    def _tournament(self, organiser: AbstractBaseUser) -> Tournament:
        """Today's demo knockout with its checklist, a registration window over the whole day and
        the start time of the expected plan."""
        today = timezone.localdate()
        tz = timezone.get_current_timezone()
        window = desk.WindowInput(
            opens_at=datetime.datetime.combine(today, datetime.time(0, 0), tzinfo=tz),
            closes_at=datetime.datetime.combine(today, datetime.time(23, 59), tzinfo=tz),
        )
        tournament = desk.create_tournament(
            actor=organiser,
            name=DEMO_NAME,
            date=today,
            venue=DEMO_VENUE,
            game=enums.Game.UNO,
            format=enums.Format.KNOCKOUT,
            capacity=50,
            entry_fee=Decimal("15"),
            checklist=CHECKLIST,
            returnable=RETURNABLE,
            windows=[window],
        )
        # The championship's rules: "Anmeldung von 09:00-09:30 ..., Spiel-Beginn 10 Uhr" (the expected plan's start).
        return desk.save_settings(tournament=tournament, actor=organiser, start_time=datetime.time(10, 0)).tournament

    def _staff(self, tournament: Tournament, organiser: AbstractBaseUser) -> None:
        """The demo's desk and referee logins, given their roles in the tournament."""
        user_model = get_user_model()
        for staff_name, staff_password, role in STAFF:
            # A password creates the account (add_staff refuses a taken name); a demo login left from
            # an earlier demo tournament just gets its role again.
            exists = user_model.objects.filter(username=staff_name).exists()
            desk.add_staff(
                tournament=tournament,
                actor=organiser,
                username=staff_name,
                role=role,
                password="" if exists else staff_password,
            )

    def _players(self, tournament: Tournament) -> dict[str, int]:
        """``PLAYERS`` registered by the desk login, each as far as the desk got (see ``PLAYERS``)."""
        desk_user = get_user_model().objects.get(username=STAFF[0][0])
        items = list(tournament.checklist_items.order_by("position", "pk"))
        counts = {"players": 0, "ticked_all": 0, "checked_in": 0}
        for index, (name, club, contact, progress) in enumerate(PLAYERS):
            # The window ends at 23:59; a load in the day's last minute still registers.
            registration = desk.register_player(
                tournament=tournament,
                actor=desk_user,
                name=name,
                club=club,
                contact=contact,
                confirm_outside_window=True,
            )
            player_id = registration.player.pk
            counts["players"] += 1
            if progress == "new":
                continue
            # "some": licence and certificate shown, fee or deck still open (alternating).
            ticked = items if progress in ("all", "in") else items[:2] + items[2 + index % 2 : 3 + index % 2]
            for item in ticked:
                desk.set_check(tournament=tournament, actor=desk_user, player_id=player_id, item_id=item.pk, done=True)
            if progress in ("all", "in"):
                counts["ticked_all"] += 1
            if progress == "in":
                desk.check_in_player(tournament=tournament, actor=desk_user, player_id=player_id)
                counts["checked_in"] += 1
        return counts

    def _report(self, tournament: Tournament, counts: dict[str, int]) -> None:
        write = self.stdout.write
        write(self.style.SUCCESS(f"Created demo tournament “{tournament.name}” (id {tournament.pk})"))
        write(f"  {tournament.date:%Y-%m-%d}, {tournament.venue}; UNO knockout, capacity {tournament.capacity}")
        write(
            f"  {counts['players']} players registered, {counts['ticked_all']} with every checklist item ticked, "
            f"{counts['checked_in']} checked in"
        )
        write("  Logins:")
        write(f"    {ORGANISER[0]} / {ORGANISER[1]}  ({enums.Role.ORGANISER.label})")
        for staff_name, staff_password, role in STAFF:
            write(f"    {staff_name} / {staff_password}  ({enums.Role(role).label})")
