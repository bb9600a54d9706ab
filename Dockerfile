# Canasta Referee: the HTTP service under gunicorn.
#   docker build -t canasta-referee .
#   docker run --rm -p 8000:8000 canasta-referee
FROM python:3.11.7-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PORT=8000 \
    WEB_CONCURRENCY=2

WORKDIR /app

RUN groupadd --system --gid 10001 referee \
 && useradd --system --uid 10001 --gid referee --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin referee

COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt

# The code stays owned by root: the service user can read it but not change it.
COPY . .

USER referee

EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=4)"]

CMD ["gunicorn", "-c", "gunicorn.conf.py", "app:app"]
