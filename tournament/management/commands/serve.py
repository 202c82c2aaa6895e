"""manage.py serve --host 127.0.0.1 --port 8000 [--workers 2] [--threads 4] [--backup-minutes 5] [--backup-keep 24]

What ``make run`` ends with: works out the addresses the server answers on,
allows exactly those host names (``DJANGO_ALLOWED_HOSTS``, never ``*``; an
explicit ``DJANGO_ALLOWED_HOSTS`` in the environment wins), prints the
address to open (and a QR code of the venue-network address for the tablets)
and replaces itself with gunicorn.

``--host 0.0.0.0`` (or ``::``) serves the venue network: the tablets open the
laptop's LAN address. The addresses are read once at start; when the laptop's
address changes (another Wi-Fi, a new DHCP lease) restart the command.

On the embedded SQLite database the server keeps snapshots in ``backups/``
beside the database (``var/backups/``; ``SPIELLEITUNG_BACKUP_DIR`` moves them):
one every ``--backup-minutes`` (default 5; 0 turns snapshots off), the newest
``--backup-keep`` (default 24) of those kept, plus one after each closed round,
all kept. A thread in the gunicorn master takes them
(``tournament.backups.gunicorn_hooks``, passed with ``-c``; why there: see that
module); the round snapshots come from ``play.rounds.close_round``.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

import segno
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError, connections

from tournament.backups import portable

# Host values that mean "every interface of this machine".
WILDCARD_HOSTS = {"0.0.0.0", "::", ""}
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}
# Logins created by ``manage.py load_demo`` (printed only when the demo is loaded).
DEMO_LOGINS = [
    ("demo", "demo-password", "organiser"),
    ("referee", "referee-password", "referee"),
]
# Seconds gunicorn gives running requests to finish on SIGTERM before killing a worker.
GRACEFUL_TIMEOUT = 10
# The gunicorn config module with the snapshot thread (server hooks in the master).
BACKUP_HOOKS = "python:tournament.backups.gunicorn_hooks"


@dataclass(frozen=True)
class Addresses:
    """Where the server answers: ``allowed`` becomes ALLOWED_HOSTS, ``lan`` the tablets' addresses,
    ``mdns`` the ``<hostname>.local`` name.

    ``lan`` lists non-loopback IPv4 addresses, the likeliest one (the default
    route's) first; it is empty unless the server listens on every interface.
    """

    allowed: list[str]
    lan: list[str]
    mdns: str


def _is_lan_ipv4(text: str) -> bool:
    """True for an IPv4 address another machine could reach (not loopback, unspecified or multicast)."""
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return False
    return (
        isinstance(address, ipaddress.IPv4Address)
        and not address.is_loopback
        and not address.is_unspecified
        and not address.is_multicast
    )


def _route_address() -> list[str]:
    """The address of the interface that holds the default route.

    Connecting a UDP socket sends no packet; it only picks the outgoing
    interface. Fails quietly on a machine without any route.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737): never answered, just routed
            return [probe.getsockname()[0]]
    except OSError:
        return []


def _hostname_addresses() -> list[str]:
    """IPv4 addresses the machine's own host name resolves to (often only 127.0.1.1 on Debian)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET, socket.SOCK_STREAM)
    except OSError:
        return []
    return [str(info[4][0]) for info in infos]


def _hostname_i_addresses() -> list[str]:
    """Every interface address from Linux's ``hostname -I`` (absent or different elsewhere)."""
    try:
        result = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2, check=False)
    except (OSError, subprocess.SubprocessError):
        return []
    return result.stdout.split() if result.returncode == 0 else []


def lan_addresses() -> list[str]:
    """Every non-loopback IPv4 address of this machine, the default route's first, without duplicates."""
    found: list[str] = []
    for candidate in _route_address() + _hostname_i_addresses() + _hostname_addresses():
        if _is_lan_ipv4(candidate) and candidate not in found:
            found.append(candidate)
    return found


def server_addresses(host: str) -> Addresses:
    """The host names a server bound to ``host`` answers on.

    Always ``localhost`` and ``127.0.0.1``. For a wildcard host also every LAN
    address, the machine's host name and ``<hostname>.local`` (mDNS); for a
    specific host that host.
    """
    allowed = ["localhost", "127.0.0.1"]
    lan: list[str] = []
    hostname = socket.gethostname().strip().lower()
    short = hostname.split(".")[0]
    if host in WILDCARD_HOSTS:
        lan = lan_addresses()
        names = [*lan, hostname, short, f"{short}.local"]
        if host == "::":
            names.append("[::1]")
    else:
        names = [f"[{host}]" if ":" in host else host]
    for name in names:
        if name and name not in allowed:
            allowed.append(name)
    return Addresses(allowed=allowed, lan=lan, mdns=f"{short}.local")


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


class Command(BaseCommand):
    help = "Serve the site with gunicorn on the given address, printing where to open it (and a QR code for tablets)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1", help="0.0.0.0 serves the venue network")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
        parser.add_argument("--threads", type=int, default=4, help="threads per worker (gthread)")
        parser.add_argument(
            "--backup-minutes",
            type=float,
            default=5,
            help="minutes between snapshots of the SQLite database (0: no snapshots, also none after rounds)",
        )
        parser.add_argument("--backup-keep", type=int, default=24, help="rolling snapshots to keep (round ones stay)")

    def handle(self, *args: Any, **options: Any) -> None:
        host: str = options["host"].strip().strip("[]") or "0.0.0.0"
        port: int = options["port"]
        workers: int = options["workers"]
        threads: int = options["threads"]
        if not 0 < port < 65536:
            raise CommandError("--port must be between 1 and 65535")
        if workers < 1 or threads < 1:
            raise CommandError("--workers and --threads must be at least 1")
        if options["backup_minutes"] < 0 or options["backup_keep"] < 1:
            raise CommandError("--backup-minutes must be 0 or more and --backup-keep at least 1")

        addresses = server_addresses(host)
        env = dict(os.environ)
        explicit = env.get("DJANGO_ALLOWED_HOSTS", "").strip()
        if not explicit:
            env["DJANGO_ALLOWED_HOSTS"] = ",".join(addresses.allowed)
        backups = self._backup_environment(options["backup_minutes"], options["backup_keep"])
        env.update(backups)
        if not backups:  # off: no round snapshots in the workers either
            env.pop("SPIELLEITUNG_BACKUP_DIR", None)
        self._print_banner(host, port, addresses, explicit)
        if backups:
            self.stdout.write(
                f"  Snapshots every {options['backup_minutes']:g} minutes and after each round: "
                f"{backups['SPIELLEITUNG_BACKUP_DIR']}"
            )
            self.stdout.write("")

        bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        argv = [
            sys.executable,  # this interpreter's gunicorn: the one installed beside Django
            "-m",
            "gunicorn",
            "config.wsgi",
            "--chdir",
            str(settings.BASE_DIR),
            "--bind",
            bind,
            "--workers",
            str(workers),
            # Threads: a tablet on bad Wi-Fi that sends its request slowly holds a thread, not a whole worker.
            "--worker-class",
            "gthread",
            "--threads",
            str(threads),
            "--graceful-timeout",
            str(GRACEFUL_TIMEOUT),
            "--access-logfile",
            "-",
            "--log-level",
            "warning",
        ]
        if backups:
            argv += ["--config", BACKUP_HOOKS]
        connections.close_all()  # the banner's query must not leave a database handle to gunicorn
        self.stdout.flush()
        sys.stdout.flush()
        sys.stderr.flush()
        os.execvpe(argv[0], argv, env)

    def _backup_environment(self, minutes: float, keep: int) -> dict[str, str]:
        """The variables that turn snapshots on in gunicorn's master and workers (none: off).

        Only for the embedded SQLite database; on PostgreSQL use ``manage.py backup`` (pg_dump).
        """
        database = portable.sqlite_database()
        if minutes <= 0 or database is None:
            return {}
        directory = portable.default_directory().resolve()
        return {
            "SPIELLEITUNG_BACKUP_DATABASE": str(database.resolve()),
            "SPIELLEITUNG_BACKUP_DIR": str(directory),
            "SPIELLEITUNG_BACKUP_MINUTES": f"{minutes:g}",
            "SPIELLEITUNG_BACKUP_KEEP": str(keep),
        }

    def _print_banner(self, host: str, port: int, addresses: Addresses, explicit: str) -> None:
        write = self.stdout.write
        write("")
        if host in WILDCARD_HOSTS:
            write(f"  Spielleitung on this computer:  {_url('127.0.0.1', port)}")
            if addresses.lan:
                write(f"  Tablets on the venue network:   {_url(addresses.lan[0], port)}")
                for other in addresses.lan[1:]:
                    write(f"                      (or else)   {_url(other, port)}")
                write(f"  (where the network resolves .local names: {_url(addresses.mdns, port)})")
            else:
                write("  No network address found: connect the laptop to the venue network and restart.")
        elif host in LOOPBACK_HOSTS:
            write(f"  Spielleitung on this computer:  {_url(host, port)}")
            write("  Only this computer can connect. For tablets: make run HOST=0.0.0.0")
        else:  # one interface only: 127.0.0.1 does not answer
            write(f"  Spielleitung at:  {_url(host, port)}")
        if explicit:
            write(f"  DJANGO_ALLOWED_HOSTS is set, the site answers only to: {explicit}")
        demo = self._demo_logins()
        if demo:
            write("")
            for username, password, role in demo:
                write(f"  Log in as  {username} / {password}  ({role} of the demo tournament)")
        if host in WILDCARD_HOSTS:
            write("  Stop with Ctrl+C. If the laptop's network address changes, restart (the address is read once).")
        else:
            write("  Stop with Ctrl+C.")
        write("")
        tablet_host = addresses.lan[0] if host in WILDCARD_HOSTS and addresses.lan else host
        if tablet_host not in WILDCARD_HOSTS | LOOPBACK_HOSTS:
            url = _url(tablet_host, port)
            write(f"  Scan on a tablet to open {url}")
            self.stdout.flush()  # the QR code is written to sys.stdout directly: keep the order
            segno.make(url).terminal(out=sys.stdout, compact=True)
            write("")

    def _demo_logins(self) -> list[tuple[str, str, str]]:
        """The demo logins whose accounts exist (none before ``load_demo`` or on a fresh database)."""
        try:
            existing = set(
                get_user_model()
                .objects.filter(username__in=[login[0] for login in DEMO_LOGINS])
                .values_list("username", flat=True)
            )
        except DatabaseError:
            return []
        return [login for login in DEMO_LOGINS if login[0] in existing]
