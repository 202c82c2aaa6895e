"""Settings for Spielleitung, read from the environment.

Variables (see README):
    DATABASE_URL          default: SQLite file var/spielleitung.sqlite3
    DJANGO_SECRET_KEY     required when DJANGO_DEBUG is off
    DJANGO_DEBUG          "1"/"true" turns debug on; default off (safe)
    DJANGO_ALLOWED_HOSTS  comma separated; default "localhost,127.0.0.1"
    DJANGO_CSRF_TRUSTED_ORIGINS  comma separated origins behind a proxy
    DJANGO_SECURE_COOKIES "1" marks cookies Secure (set behind HTTPS)
    DJANGO_SECURE_SSL_REDIRECT  "1" redirects http:// to https:// (behind HTTPS; not for `make run`)
    DJANGO_HSTS_SECONDS   Strict-Transport-Security max-age; default 0 (no header)
    DJANGO_HSTS_INCLUDE_SUBDOMAINS, DJANGO_HSTS_PRELOAD  "1" adds the flag to that header; default off
    DJANGO_LOGIN_FAILURE_LIMIT    failed logins that lock a user name at one address; default 5
    DJANGO_PLAYER_PASS_FAILURES   wrong player-pass links one address may open in ten minutes; default 30
    EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, EMAIL_USE_SSL,
    DEFAULT_FROM_EMAIL            mail for the online sign-up's confirmation; none without EMAIL_HOST
    DJANGO_LOGIN_LOCKOUT_MINUTES  how long that lock lasts; default 15
    DJANGO_PROXY_COUNT    proxies in front that append to X-Forwarded-For; default 0 (REMOTE_ADDR is the client)
    REDIS_URL (or CACHE_URL)  a Redis shared by every process (redis://host:6379/0); default: a cache per process
    DJANGO_CACHE_PREFIX   the keys' prefix in that Redis; default "spielleitung"

The defaults serve plain HTTP on a LAN (`make run`): no redirect, no HSTS, no
Secure cookies. README "Production" lists what a public deployment sets; there
`manage.py check --deploy` passes without a warning (config/tests/test_security.py).

Login throttling (django-axes) locks the combination of user name and client
address: at a venue every tablet may reach a public server through the hall's
router, i.e. from one address, so locking the address alone would lock out every
referee when one mistypes. Unlock with `manage.py axes_reset_username NAME` (or
`axes_reset` for everyone) before the lock ends by itself.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int, minimum: int = 0) -> int:
    """A whole number of at least ``minimum``; a typo stops the start with the variable's name."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        number = int(value)
    except ValueError:
        number = minimum - 1
    if number < minimum:
        raise ImproperlyConfigured(f"{name} must be a whole number of at least {minimum}, not {value!r}.")
    return number


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_flag("DJANGO_DEBUG")

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set DJANGO_SECRET_KEY (or DJANGO_DEBUG=1 for local development).")
    SECRET_KEY = "insecure-development-key-only-for-debug"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    "csp",
    "tournament",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # django-csp's, leaving 304s alone (they have no body to govern).
    "config.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Before any view reads a parameter: a NUL character answers a translated 400 (PostgreSQL cannot store it).
    "config.middleware.RejectNulCharactersMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tournament.middleware.RequestOriginMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: turns a login refused for a locked user name into the lockout page (config.security).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournament.context_processors.ui_messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DEFAULT_DATABASE_URL = f"sqlite:///{BASE_DIR / 'var' / 'spielleitung.sqlite3'}"
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL),
        conn_max_age=int(os.environ.get("DJANGO_CONN_MAX_AGE", "60")),
        # Kept on: a reused connection is checked (one round trip) before the request's first
        # query, so a restarted PostgreSQL costs no failed page. A poll answered 304 from the cache
        # makes no query and so never pays that check (Django checks lazily, on first use).
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded database of `make run`: gunicorn workers and their threads share one file.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            # Every transaction.atomic() starts with BEGIN IMMEDIATE, taking the write lock up front. With the
            # default (DEFERRED) a transaction that read first cannot wait for the lock when it later writes:
            # SQLite fails at once with "database is locked" (the 500s of ten tablets posting together).
            "transaction_mode": "IMMEDIATE",
            # Busy timeout in seconds: a writer waits this long for another's lock before failing.
            "timeout": 20,
            # Executed on every new connection (Django splits on ";", after its own PRAGMA foreign_keys = ON,
            # which stays on).
            "init_command": ";".join(
                [
                    # Write-ahead log: readers (pages, the projector's polls) never wait for a writer nor block one.
                    "PRAGMA journal_mode=WAL",
                    # FULL, not NORMAL: in WAL mode NORMAL may lose the last commits on a power cut or OS crash,
                    # i.e. results a tablet was told are saved. FULL syncs the log once per commit.
                    "PRAGMA synchronous=FULL",
                    # Sorts and temporary indices in memory, not in temporary files.
                    "PRAGMA temp_store=MEMORY",
                    # Page cache per connection: 16 MiB (negative means KiB) holds a whole day's database.
                    "PRAGMA cache_size=-16384",
                ]
            ),
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# django-axes first: it refuses a locked user name before any password is checked. Its AxesBackend
# (not the standalone one) also loads users like ModelBackend, so the first backend can restore a
# session (code that stores AUTHENTICATION_BACKENDS[0] in a session keeps working); ModelBackend
# checks the passwords. Tests: django-axes needs the request, which Django 5.2's Client.login does not
# pass (it raises AxesBackendRequestParameterRequired): use force_login, or post to the login page.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesBackend",
    "django.contrib.auth.backends.ModelBackend",
]

LOGIN_FAILURE_LIMIT = env_int("DJANGO_LOGIN_FAILURE_LIMIT", 5, minimum=1)
LOGIN_LOCKOUT_MINUTES = env_int("DJANGO_LOGIN_LOCKOUT_MINUTES", 15, minimum=1)
# Counted from REMOTE_ADDR, or from X-Forwarded-For behind this many proxies (config.security.client_ip).
PROXY_COUNT = env_int("DJANGO_PROXY_COUNT", 0)
# Failed look-ups of player passes per address (tournament.passes.limits, django-ratelimit in the
# shared cache): past them the address gets 429 until the window ends.
PLAYER_PASS_FAILURES = f"{env_int('DJANGO_PLAYER_PASS_FAILURES', 30, minimum=1)}/10m"
# The public sign-up's suggestions from the club's register (tournament.passes.limits): every
# request counts, per address; generous, since a club's members may share one address.
SIGNUP_SUGGESTIONS_RATE = f"{env_int('DJANGO_SIGNUP_SUGGESTIONS_PER_MINUTE', 120, minimum=1)}/m"

# Mail (the online sign-up's confirmation with the pass link, ``tournament.passes.signup``): sent
# only when EMAIL_HOST is set; without it no mail is sent and the sign-up page says so.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_flag("EMAIL_USE_TLS", EMAIL_PORT == 587)
EMAIL_USE_SSL = env_flag("EMAIL_USE_SSL", EMAIL_PORT == 465)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "spielleitung@localhost")
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = timedelta(minutes=LOGIN_LOCKOUT_MINUTES)
# The user name at one address (see the module docstring for why not the address alone).
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "config.security.client_ip"
# The translated page in the site layout, for the site's login and the admin's.
AXES_LOCKOUT_CALLABLE = "config.security.lockout_response"
# A right password after a few typos starts the count again.
AXES_RESET_ON_SUCCESS = True
# A try during the lock is refused but does not restart it: "wait N minutes" stays true.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# Only failed attempts are kept (AccessAttempt); no log of every login with its address.
AXES_DISABLE_ACCESS_LOG = True
# No start-up banner in every management command's output; failures are still logged (WARNING).
AXES_VERBOSE = False

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournament:home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en"
LANGUAGES = [("de", _("German")), ("it", _("Italian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "Europe/Vienna")
USE_I18N = True
# English with the 24-hour clock (config/formats/en/formats.py); German and Italian keep Django's own.
FORMAT_MODULE_PATH = ["config.formats"]
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "var" / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "config.storage.ModuleManifestStaticFilesStorage"  # whitenoise's, with the JS modules' imports hashed
        )
    },
}

SESSION_COOKIE_SECURE = env_flag("DJANGO_SECURE_COOKIES")
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
SESSION_COOKIE_AGE = 60 * 60 * 16  # one long tournament day
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
CSRF_FAILURE_VIEW = "config.views.csrf_failure"  # translated page: reload and enter again
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Off by default: `make run` serves plain HTTP on the venue's network.
SECURE_SSL_REDIRECT = env_flag("DJANGO_SECURE_SSL_REDIRECT")
# The container's health check asks over plain HTTP from inside (docker-entrypoint.sh).
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("DJANGO_HSTS_INCLUDE_SUBDOMAINS")
SECURE_HSTS_PRELOAD = env_flag("DJANGO_HSTS_PRELOAD")

# Content-Security-Policy (django-csp) on every response: scripts, styles and everything else
# only from this site; no inline script, style attribute, event handler or eval anywhere
# (htmx's own indicator style is off: <meta name="htmx-config"> in the layouts, CSS in app.css).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
        "worker-src": [SELF],  # the service worker, /sw.js
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"one_line_refusals": {"()": "config.log_filters.OneLineRefusals"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {
        # django-axes: failed logins and locks (WARNING), not four lines for every successful login.
        "axes": {"level": "WARNING"},
        # A 403 in one line, without the traceback of the PermissionDenied raised (config.log_filters).
        "django.request": {"filters": ["one_line_refusals"]},
    },
}

# Snapshots (tournament.backups): where `manage.py backup` writes by default and, when set (`manage.py serve`
# sets it), where a snapshot is kept after each closed round. Empty: next to the SQLite database, no round snapshots.
SPIELLEITUNG_BACKUP_DIR = os.environ.get("SPIELLEITUNG_BACKUP_DIR", "")

# The accessibility statement (/accessibility/) names whom to tell about a barrier: the organiser's
# e-mail address or telephone number. Empty: the statement sends people to the tournament desk.
SPIELLEITUNG_ACCESSIBILITY_CONTACT = os.environ.get("SPIELLEITUNG_ACCESSIBILITY_CONTACT", "").strip()

# The cache holds the tournaments' versions (a poll that changes nothing reads no database:
# tournament.versions) and the public pages' renderings (tournament.renderings). With more than
# one process (gunicorn workers, several app servers) it must be shared: REDIS_URL (or CACHE_URL)
# switches to Django's Redis backend (config.cache: its client kept, not rebuilt per call), e.g.
# redis://127.0.0.1:6379/0. Without it each process keeps its own (LocMem, `make run`): a version
# is then trusted for one second only, since another worker's write is not seen there
# (tournament.versions.seconds).
CACHE_URL = os.environ.get("REDIS_URL", "").strip() or os.environ.get("CACHE_URL", "").strip()
SHARED_CACHE = bool(CACHE_URL)
if SHARED_CACHE:
    if not CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured("REDIS_URL (or CACHE_URL) must be a redis://, rediss:// or unix:// address.")
    CACHES = {
        "default": {
            "BACKEND": "config.cache.ReusedClientRedisCache",  # Django's, one client per pool
            "LOCATION": CACHE_URL,
            # Several sites (or test runs) may share one Redis: each keeps to its own keys.
            "KEY_PREFIX": os.environ.get("DJANGO_CACHE_PREFIX", "spielleitung"),
            "TIMEOUT": 60 * 60,
        }
    }
    # Staff sessions are read from the shared cache (written through to the database): a tap
    # saves a query. Not with a cache per process, where a logout in one worker would leave the
    # session alive in the others' caches.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "spielleitung",
            "OPTIONS": {"MAX_ENTRIES": 2000},
        }
    }
