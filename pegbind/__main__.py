"""``python -m pegbind``: the same command line as the ``pegbind`` script."""
from .cli import run

run()
