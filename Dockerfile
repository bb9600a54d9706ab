# Canasta Referee: the HTTP service under gunicorn.
#   docker build -t canasta-referee .
#   docker run --rm -p 8000:8000 canasta-referee
# Where the image registry is out of reach, on a base made from Debian's own packages (docs/image.md):
#   docker build --build-arg PYTHON_IMAGE="$(bash scripts/local-base-image)" -t canasta-referee .
# tests/test_image.py builds this file on that base and runs the container.

# The one base every stage stands on. Python 3.11.17 (the newest 3.11 patch found), Debian 12, pinned to the
# multi-platform index digest so every build gets the same base. Bump the tag and the digest together:
#   docker buildx imagetools inspect python:3.11-slim-bookworm
# Any Debian 12 image with Python 3.11 and its venv module will do (scripts/local-base-image makes one with
# Debian's python3, 3.11.2): the stages below call python3 only to make a virtual environment, and use its
# python and pip from then on (Debian's own python3 refuses pip installs into it, PEP 668).
ARG PYTHON_IMAGE=python:3.11.17-slim-bookworm@sha256:0a310eeecf4e1f5a0743f9a6520c90c88d089c903ca5fd283f501e3a805f5f89

FROM ${PYTHON_IMAGE} AS python-base
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python3 -m venv /opt/venv
ENV VIRTUAL_ENV=/opt/venv \
    PATH=/opt/venv/bin:$PATH

# The service's packages, exactly as requirements.txt pins them (with their hashes): installed once here, then
# used by the service and by the offline engine's archive, which takes their pure-Python parts.
FROM python-base AS service-packages
WORKDIR /packages
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt

# The engine (adjudicator/rules, words, input, options, compare, scoring, answers; model/cards.py) compiled to C
# by mypyc, as scripts/compile-engine lists them: the same source, about twice as fast in process
# (BENCHMARKS.md). Built on the very base the service runs on, so the extension modules fit its Python;
# requirements-compile.txt holds the compiler and, at the service's pins, what the compiled modules import.
# The compiler, gcc and Python's headers (Debian's python3-dev where the base lacks them) stay in this stage.
# tests/test_compiled_engine.py runs the suite against the same build.
FROM python-base AS engine-compiled
RUN headers="$(python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')" \
 && apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev $([ -f "$headers/Python.h" ] || echo python3-dev) \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /build
COPY requirements-compile.txt ./
RUN pip install --no-cache-dir --require-hashes -r requirements-compile.txt
COPY adjudicator adjudicator
COPY scripts/compile-engine scripts/compile-engine
RUN python scripts/compile-engine /build

# The engine the page keeps for play without signal, made by the very script a checkout runs
# (scripts/install-engine-runtime: Pyodide's core from the npm registry, exactly as phone_engine/package-lock.json
# pins it, and the project's archive built from the service's packages above). Node and npm are Debian's, on the
# same base; they stay in this stage, and only phone_engine/build goes on.
FROM python-base AS engine-runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends nodejs npm \
 && rm -rf /var/lib/apt/lists/*
COPY --from=service-packages /opt/venv /opt/venv
WORKDIR /build
COPY . .
RUN bash scripts/install-engine-runtime python

FROM python-base

ENV PORT=8000 \
    WEB_CONCURRENCY=2 \
    CANASTA_CACHE_DIR=/app/.cache

WORKDIR /app

RUN groupadd --system --gid 10001 referee \
 && useradd --system --uid 10001 --gid referee --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin referee

COPY --from=service-packages /opt/venv /opt/venv

# The code stays owned by root: the service user can read it but not change it.
COPY . .
# The compiled engine beside its sources (Python imports an extension module before the .py of its name).
COPY --from=engine-compiled /build/adjudicator/rules/*.so adjudicator/rules/
COPY --from=engine-compiled /build/adjudicator/words/*.so adjudicator/words/
COPY --from=engine-compiled /build/adjudicator/input/*.so adjudicator/input/
COPY --from=engine-compiled /build/adjudicator/options/*.so adjudicator/options/
COPY --from=engine-compiled /build/adjudicator/compare/*.so adjudicator/compare/
COPY --from=engine-compiled /build/adjudicator/scoring/*.so adjudicator/scoring/
COPY --from=engine-compiled /build/adjudicator/model/*.so adjudicator/model/
COPY --from=engine-compiled /build/adjudicator/answers/*.so adjudicator/answers/
COPY --from=engine-compiled /build/*__mypyc*.so ./
COPY --from=engine-runtime /build/phone_engine/build phone_engine/build

# Start-up without compiling or parsing: the bytecode written once here (PYTHONDONTWRITEBYTECODE stops the
# service from writing it), and the variant files' parse kept in a root-owned cache the service may read but
# not change (adjudicator/variants.py checks it against each file's sha256 on every start).
RUN python -m compileall -q adjudicator web_api app.py gunicorn.conf.py \
 && mkdir -m 0755 "$CANASTA_CACHE_DIR" && python -c "import app" \
 && python scripts/compile-engine /app --check

USER referee

EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=4)"]

CMD ["gunicorn", "-c", "gunicorn.conf.py", "app:app"]
