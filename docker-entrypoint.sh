#!/bin/sh
# Container entry point.
#   serve (default)  migrate the database, then run gunicorn on 0.0.0.0:${PORT:-8000}
#   healthcheck      exit 0 when the app answers ${HEALTHCHECK_PATH:-/healthz} with 200
#   anything else    run as a command, e.g. "python manage.py createsuperuser"
set -eu

case "${1:-serve}" in
serve)
    python manage.py migrate --no-input
    exec gunicorn config.wsgi \
        --bind "0.0.0.0:${PORT:-8000}" \
        --workers "${WEB_CONCURRENCY:-3}" \
        --worker-tmp-dir /dev/shm \
        --access-logfile -
    ;;
healthcheck)
    exec python - <<'PY'
import os
import sys
import urllib.request

hosts = [h.strip() for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost").split(",") if h.strip()]
host = hosts[0].lstrip(".") if hosts and hosts[0] != "*" else "localhost"
url = "http://127.0.0.1:%s%s" % (os.environ.get("PORT", "8000"), os.environ.get("HEALTHCHECK_PATH", "/healthz"))
request = urllib.request.Request(url, headers={"Host": host})
try:
    with urllib.request.urlopen(request, timeout=4) as response:
        sys.exit(0 if response.status == 200 else 1)
except Exception as error:
    print(f"healthcheck failed: {error}", file=sys.stderr)
    sys.exit(1)
PY
    ;;
*)
    exec "$@"
    ;;
esac
