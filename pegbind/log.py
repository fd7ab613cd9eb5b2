"""pegbind's log, without importing :mod:`logging` when nobody listens.

pegbind says what it does on the ``pegbind.*`` loggers (the phases and their
times on ``pegbind.pipeline``, what runs now on ``pegbind.progress``).  A
logger has listeners only once :mod:`logging` is imported, by the program
that set them up or by ``pegbind -v`` (:mod:`pegbind.chatter`); until then a
message would go nowhere.  Importing logging, with what it imports, is 3 ms of
every command, so it is left unimported until someone does.
"""
from __future__ import annotations

import sys

#: the phases of a run and their times (``pegbind -v`` shows them)
PHASES = "pegbind.pipeline"
#: what runs now (on a terminal, pegbind's status line shows it)
PROGRESS = "pegbind.progress"


def info(logger: str, message: str, *values: object) -> None:
    """``logging.getLogger(logger).info(message, *values)``, where logging is imported."""
    logging = sys.modules.get("logging")
    if logging is not None:
        logging.getLogger(logger).info(message, *values, stacklevel=2)  # the caller made it
