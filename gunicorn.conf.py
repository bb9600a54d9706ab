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

# Workers: sync, one process per CPU core. WEB_CONCURRENCY sets the count; the default 2 fits a
# 2-core machine and the CPU limit of the Kubernetes Deployment in deploy/. Chosen by measurement
# (bench/http_bench.py --sweep, see BENCHMARKS.md; 2 cores, 16 connections):
# * Every request is CPU-bound Python (JSON, marshmallow validation, the engine) and waits on
#   nothing, so processes beyond the core count only add context switches: 3 sync workers gave
#   the same requests/s as 2 with 1.1-1.6x the p99; 5 workers gave 5-9% fewer requests/s and
#   1.4-2.6x the p99.
# * gthread (2 workers x 4 threads) keeps connections alive, but the threads of one process take
#   turns on the GIL: 3-6% fewer requests/s than 2 sync workers and 2.4-4.3x the p99. With sync
#   workers, waiting connections queue in the kernel's accept backlog, first come first served.
# * The default is a fixed number, not os.cpu_count(): in a container that counts the host's
#   cores, not the container's CPU limit.
# Scale out with more replicas, not more workers per replica. Sync workers expect a buffering
# proxy or load balancer in front (an ingress or cloud load balancer): a slow client would hold a
# whole worker while it trickles its request in.
workers = int(os.environ.get("WEB_CONCURRENCY") or 2)
worker_class = "sync"

# Load the app (and verify every variant's citations) once in the master: a broken
# variant file stops start-up instead of failing in each worker; the workers share the
# loaded variants copy-on-write.
preload_app = True

timeout = 30
# Less than Kubernetes' terminationGracePeriodSeconds (30) minus the preStop pause (5) in deploy/.
graceful_timeout = 20
# Seconds an idle keep-alive connection stays open. It applies to the gthread and async workers
# only: a sync worker closes each connection after its response.
keepalive = 5

# Logs to stdout/stderr. The access log has the request line, status, size, time, user
# agent and the request id (the X-Request-ID *response* header: the app checks or replaces
# what the client sent, so it is always [A-Za-z0-9._-]); the app's error log names the same
# id for a 500. It never contains request bodies or request headers beyond the user agent.
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms "%(a)s" rid=%({x-request-id}o)s'

# Heartbeat files on tmpfs (inside Docker, /tmp may be an overlay and slow). /dev/shm stays
# writable when the root filesystem is read-only (Kubernetes readOnlyRootFilesystem).
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None

# No runtime control socket: nothing uses gunicornc, and the service user has no home to put it in.
control_socket_disable = True
