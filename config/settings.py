"""Settings for Spielleitung, read from the environment.

Variables (see README):
    DATABASE_URL          default: SQLite file var/spielleitung.sqlite3
    DJANGO_SECRET_KEY     required when DJANGO_DEBUG is off
    DJANGO_DEBUG          "1"/"true" turns debug on; default off (safe)
    DJANGO_ALLOWED_HOSTS  comma separated; default "localhost,127.0.0.1"
    DJANGO_CSRF_TRUSTED_ORIGINS  comma separated origins behind a proxy
    DJANGO_SECURE_COOKIES "1" marks cookies Secure (set behind HTTPS)
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


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
    "tournament",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tournament.middleware.RequestOriginMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
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

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournament:home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en"
LANGUAGES = [("de", _("German")), ("it", _("Italian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "Europe/Vienna")
USE_I18N = True
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
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

SESSION_COOKIE_SECURE = env_flag("DJANGO_SECURE_COOKIES")
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SESSION_COOKIE_AGE = 60 * 60 * 16  # one long tournament day
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
CSRF_FAILURE_VIEW = "config.views.csrf_failure"  # translated page: reload and enter again
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
}

# Snapshots (tournament.backups): where `manage.py backup` writes by default and, when set (`manage.py serve`
# sets it), where a snapshot is kept after each closed round. Empty: next to the SQLite database, no round snapshots.
SPIELLEITUNG_BACKUP_DIR = os.environ.get("SPIELLEITUNG_BACKUP_DIR", "")

# Rendered public fragments are cached per tournament version (a write bumps
# the version, so a stale fragment is never served). Per process by default.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "spielleitung",
        "OPTIONS": {"MAX_ENTRIES": 2000},
    }
}
