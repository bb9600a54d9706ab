"""Gunicorn settings: ``gunicorn -c gunicorn.conf.py app:app``.

Environment:
  PORT             port to listen on (all interfaces); default 8000
  WEB_CONCURRENCY  number of worker processes; default 2
  LOG_LEVEL        gunicorn's log level; default info
(The app itself reads CORS_ALLOWED_ORIGINS, CANASTA_MAX_CONTENT_LENGTH and
CANASTA_VARIANTS_DIR: see web_api/__init__.py.)
"""

import os

bind = f"0.0.0.0:{int(os.environ.get('PORT') or 8000)}"
workers = int(os.environ.get("WEB_CONCURRENCY") or 2)
worker_class = "sync"

# Load the app (and verify every variant's citations) once in the master: a broken
# variant file stops start-up instead of failing in each worker.
preload_app = True

timeout = 30
graceful_timeout = 20
keepalive = 5

# Logs to stdout/stderr. The access log has the request line, status, size, time, user
# agent and the request id (the X-Request-ID *response* header: the app checks or replaces
# what the client sent, so it is always [A-Za-z0-9._-]); the app's error log names the same
# id for a 500. It never contains request bodies or request headers beyond the user agent.
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms "%(a)s" rid=%({x-request-id}o)s'

# Heartbeat files on tmpfs (inside Docker, /tmp may be an overlay and slow).
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None

# No runtime control socket: nothing uses gunicornc, and the service user has no home to put it in.
control_socket_disable = True
