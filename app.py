"""WSGI entry point: ``gunicorn -c gunicorn.conf.py app:app``."""

from web_api import create_app

app = create_app()
