"""Gunicorn settings: ``gunicorn -c gunicorn.conf.py app:app``.

Environment:
  PORT             port to listen on (all interfaces); default 8000
  WEB_CONCURRENCY  number of worker processes; default 2
  LOG_LEVEL        gunicorn's log level; default info
  CANASTA_WORKER_MAX_RSS   MiB of resident memory past which a worker is replaced after its
                   request (read by web_api/workers.py); default 128, 0 never
(The app itself reads CORS_ALLOWED_ORIGINS, CANASTA_MAX_CONTENT_LENGTH, CANASTA_REQUEST_BUDGET,
the batch settings, CANASTA_HEAVY_SLOTS/_QUEUE/_WAIT and CANASTA_VARIANTS_DIR: see web_api/__init__.py;
what a client sees when the service is busy: docs/running.md.)
"""

import os

bind = f"0.0.0.0:{int(os.environ.get('PORT') or 8000)}"

# Workers: gevent, one process per CPU core, with the service's own subclass (web_api/workers.py:
# the errors gunicorn answers itself become problem+json with the security headers; a request body
# must arrive within `timeout` seconds). WEB_CONCURRENCY sets the count; the default 2 fits a
# 2-core machine and the CPU limit of the Kubernetes Deployment in deploy/.
#
# Why gevent (measured on 2 cores; notes/infra.md has the commands and the full tables):
# * Slow clients. A sync worker serves one connection at a time and reads it with no deadline:
#   2 connections that send a POST's headers and then wait made every other request wait 29 s, and
#   with 50 connections that trickle a byte a second the service answered nothing (a normal request
#   timed out after 10 s). gthread (2 x 4 threads) does not hold either: a trickling connection
#   holds a thread, and with 50 of them some requests timed out after 10 s. With gevent each
#   connection is a greenlet: with 50 trickling connections open, GET /healthz, GET /v1/variants and
#   POST /v1/adjudicate answered in 7 ms at worst. A request head must arrive within `keepalive` s
#   (gunicorn's gevent worker) and its body within `timeout` s (web_api/workers.py), so a slow
#   client is also cut off in the end.
# * Throughput. The work is CPU-bound and a process runs one request at a time either way, so gevent
#   costs what sync does (wrk, 16 keep-alive connections; requests/s and p99; medians of the runs
#   with the machine otherwise quiet; notes/infra.md):
#     sync, 2 workers:        healthz 4,154 / 5.4 ms, adjudicate 2,354 / 10.4 ms, compare 1,528 / 14.4 ms
#     this gevent worker, 2:  healthz 4,875 / 6.9 ms, adjudicate 2,381 / 16.1 ms, compare 1,486 / 19.8 ms
#     gthread, 2 x 4 threads: healthz 4,230 / 10.2 ms, adjudicate 2,363 / 24.7 ms, compare 1,471 / 31.6 ms
#   gunicorn's gevent worker as it is served as much but with a p99 of 0.5-2.2 s: a greenlet whose
#   client sends its next request at once never yields. Ours waits for the event loop to go idle
#   after each request (web_api/workers.py), so the connections of a worker take turns.
# * Keep one worker per core: more processes only add context switches (3 sync workers: same
#   requests/s, 1.1-1.6x the p99; 5 workers: 5-9% fewer requests/s). The default is a fixed number,
#   not os.cpu_count(): in a container that counts the host's cores, not the container's CPU limit.
# * gevent patches the standard library in each worker after the fork (gunicorn does it); the app
#   is loaded before, in the master (preload_app): it opens no sockets and starts no threads, and its
#   one lock (web_api/compression.py) is never held across I/O.
# * A crowd of long requests. Each worker takes two long requests (options, comparisons, replays,
#   batches) at a time, a few more wait their turn for up to 10 s, the rest get a 503 with Retry-After
#   (web_api/admission.py): forty long requests at once had held /healthz for up to 18 s, each taking
#   20 ms turns among all the others (issue 45; BENCHMARKS.md, "A crowd of heavy requests").
# Scale out with more replicas, not more workers per replica. A buffering proxy in front is still
# welcome (TLS, many thousands of idle connections), but no longer needed to survive slow clients.
workers = int(os.environ.get("WEB_CONCURRENCY") or 2)
worker_class = "web_api.workers.ProblemGeventWorker"
# Connections one worker serves at once (greenlets). One more is answered at once with a 503 problem
# and Retry-After (web_api/workers.py), so thousands of slow clients cannot leave new ones waiting
# unseen in the listen backlog; 500 slow connections were harmless, 2,000 exhausted two workers.
# Over the cap, a liveness probe (GET /healthz) is still answered, on one of the spare greenlets, so
# slow clients that fill the cap cannot get a healthy pod restarted (issue 36). One client filling
# the cap is the job of a proxy's per-client limits in front (docs/running.md: "In front of the service").
worker_connections = 1000

# Load the app (and verify every variant's citations) once in the master: a broken
# variant file stops start-up instead of failing in each worker; the workers share the
# loaded variants copy-on-write. `import app` loads the variants and leaves the rest of the
# engine to its first answer; when_ready below loads it in the master, before any worker is forked.
preload_app = True

# A worker that does not report for `timeout` s (a request computing that long) is killed and
# replaced. web_api/workers.py also gives each request body `timeout` s to arrive (then a 408).
timeout = 30
# A batch stops computing at its own deadline, below this (web_api/batch_api.py: the rest of its
# items are marked not done), and yields to the worker's other connections as it goes, so no valid
# request reaches this timeout (issue 24).
#
# Less than Kubernetes' terminationGracePeriodSeconds (30) minus the preStop pause (5) in deploy/.
# On SIGTERM a worker first accepts what waits in the listen backlog, then serves it and the
# requests in progress for up to this long (web_api/workers.py), so nothing queued is reset.
graceful_timeout = 20
# An answer is written in 64 KiB pieces, each of which the client must take within 10 s
# (ANSWER_WRITE_TIMEOUT in web_api/workers.py); a client that stops reading is then dropped.

# A safety net, not a memory fix (every cache keyed by request data is bounded: issue 24): a worker
# is replaced after 100,000-110,000 requests (the jitter keeps the two from restarting together).
# The master preloads the app, so a new worker is a fork, ready at once.
# Memory: a worker whose resident memory has passed CANASTA_WORKER_MAX_RSS MiB (default 128) after
# a request stops accepting, answers what it serves and is replaced the same way (web_api/workers.py):
# what a large answer made the interpreter take is given back to the system (issue 36). Between
# requests, two workers at the limit and the master (~40 MiB, ~30 of it shared with each worker) come
# to about 2 x 128 - 20 = 236 MiB of PSS: within the Deployment's 256 Mi. More workers per pod (or a
# smaller pod) want a lower limit; the budget of a request (web_api/budgets.py) bounds what one adds.
max_requests = 100_000
max_requests_jitter = 10_000
# Seconds an idle keep-alive connection stays open, and (gevent worker) the time a request's line
# and headers have to arrive: a client that trickles its headers is disconnected after 5 s.
keepalive = 5

# Logs to stdout/stderr. The access log has the request line, status, size, time, user
# agent and the request id (the X-Request-ID *response* header: the app checks or replaces
# what the client sent, so it is always [A-Za-z0-9._-]); the app's error log names the same
# id for a 500. It never contains request bodies or request headers beyond the user agent.
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms "%(a)s" rid=%({x-request-id}o)s'
# gunicorn's logger, writing the same line but working out only the atoms the format names (~30 µs
# less per request than building every atom, every header and every environ entry): web_api/access_log.py
logger_class = "web_api.access_log.AccessLogger"

# Heartbeat files on tmpfs (inside Docker, /tmp may be an overlay and slow). /dev/shm stays
# writable when the root filesystem is read-only (Kubernetes readOnlyRootFilesystem).
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None

# No runtime control socket: nothing uses gunicornc, and the service user has no home to put it in.
control_socket_disable = True


def when_ready(server):
    """In the master, after the app is preloaded and before the first worker is forked: the engine loaded and its
    first answers made (web_api.load_engine), then frozen out of the collector's reach as app.py freezes what it
    loaded. Every worker starts with the engine, shares its pages with the master and answers its first request as
    fast as the next (without preload each worker would load it for itself at its first request)."""
    if not server.cfg.preload_app:
        return
    import gc

    from web_api import load_engine

    load_engine(server.app.wsgi())
    gc.freeze()


def worker_exit(server, worker):
    """Hand the objects app.py froze (gc.freeze) back to the collector before the worker's interpreter ends.

    Frozen objects outlive the normal shutdown collection; their finalizers would then run
    while the interpreter tears gevent and logging down and print "Exception ignored" tracebacks.
    """
    import gc

    gc.unfreeze()
    gc.collect()
