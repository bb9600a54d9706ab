# Canasta Referee: the HTTP service under gunicorn.
#   docker build -t canasta-referee .
#   docker run --rm -p 8000:8000 canasta-referee
# The offline engine's runtime: Pyodide's core from the npm registry, exactly as phone_engine/package-lock.json
# pins it (npm ci checks the hashes). Only its files go on; Node stays in this stage.
FROM node:20.20.2-bookworm-slim AS engine-runtime
WORKDIR /engine
COPY phone_engine/package.json phone_engine/package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error

# The engine (adjudicator/rules, words, input, options, compare, scoring; model/cards.py) and the JSON of its answers
# (adjudicator/answers) compiled to C by mypyc, as scripts/compile-engine lists them: the same source, about
# twice as fast in process (BENCHMARKS.md). Built on the very base the service runs on, so the extension modules fit
# its Python; requirements-compile.txt holds the compiler and, at the service's pins, what the compiled modules
# import. The compiler and gcc stay in this stage. tests/test_compiled_engine.py runs the suite against the
# same build, and tests/test_fresh_install.py runs this stage's steps.
FROM python:3.11.17-slim-bookworm@sha256:0a310eeecf4e1f5a0743f9a6520c90c88d089c903ca5fd283f501e3a805f5f89 AS engine-compiled
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /build
COPY requirements-compile.txt ./
RUN pip install --no-cache-dir --require-hashes -r requirements-compile.txt
COPY adjudicator adjudicator
COPY scripts/compile-engine scripts/compile-engine
RUN python scripts/compile-engine /build

# Python 3.11.17 (the newest 3.11 patch found), Debian 12, pinned to the multi-platform index digest so
# every build gets the same base. Bump the tag and the digest together (and the builder's above):
#   docker buildx imagetools inspect python:3.11-slim-bookworm
FROM python:3.11.17-slim-bookworm@sha256:0a310eeecf4e1f5a0743f9a6520c90c88d089c903ca5fd283f501e3a805f5f89

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PORT=8000 \
    WEB_CONCURRENCY=2 \
    CANASTA_CACHE_DIR=/app/.cache

WORKDIR /app

RUN groupadd --system --gid 10001 referee \
 && useradd --system --uid 10001 --gid referee --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin referee

COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt

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

# The engine the page keeps for play without signal (scripts/install-engine-runtime does the same outside
# Docker): Pyodide's core, and the project's archive built from the packages installed above.
COPY --from=engine-runtime /engine/node_modules/pyodide /tmp/pyodide
RUN python scripts/build-engine-archive phone_engine/build --runtime /tmp/pyodide && rm -rf /tmp/pyodide

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
