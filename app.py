"""WSGI entry point: ``gunicorn -c gunicorn.conf.py app:app``."""

import gc

from web_api import create_app

app = create_app()

# The loaded variants, catalogues and schemas live as long as the process. Moving them out of
# the collector's reach keeps full collections from walking them again and again (they were
# most of the options endpoint's p99), and a forked worker then shares those pages with the
# master instead of copying them as the collector touches them.
gc.freeze()
