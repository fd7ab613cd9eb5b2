"""``python -m pegbind``: the same command line as the ``pegbind`` script."""
import sys

from .cli import main

sys.exit(main())
