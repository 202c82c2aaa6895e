# Spielleitung: the web app served by gunicorn, static files by whitenoise.
#
#   docker build -t spielleitung .
#   docker run -p 8000:8000 --env-file production.env spielleitung
#
# production.env holds the variables README's "Production" section lists (database, secret key,
# host names, HTTPS redirect, HSTS, Secure cookies, the proxy count for the login throttling).
# The container migrates the database on start, then serves on port 8000.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# An unprivileged user runs the app; the code stays owned by root (read-only for it).
RUN groupadd --system --gid 10001 app \
    && useradd --system --uid 10001 --gid app --home-dir /app --no-create-home --shell /usr/sbin/nologin app

WORKDIR /app

# Dependencies first, so a code change does not reinstall them.
COPY requirements.txt ./
RUN pip install -r requirements.txt

COPY . .

# Static files are collected into the image (var/staticfiles, served by whitenoise).
# The key only satisfies the settings during the build; it is not kept.
RUN DJANGO_SECRET_KEY=collectstatic-only-not-a-secret DJANGO_DEBUG=0 \
        python manage.py collectstatic --no-input --verbosity 0 \
    && mkdir -p var \
    && chown app:app var \
    && chmod 0755 docker-entrypoint.sh

USER app

EXPOSE 8000

# Override the path once a lighter health view exists; the check sends a Host
# header taken from DJANGO_ALLOWED_HOSTS so Django accepts it.
ENV HEALTHCHECK_PATH=/healthz
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["/app/docker-entrypoint.sh", "healthcheck"]

ENTRYPOINT ["/app/docker-entrypoint.sh"]
CMD ["serve"]
