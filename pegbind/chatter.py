"""What the command line says while it works: pegbind's log on stderr (``-v``) and the status line.

Apart from :mod:`pegbind.cli` so that a command showing neither does not
import :mod:`logging` (with what it imports, 3 ms of every run).

Input: whether ``-v`` was given and whether the status line is wanted.
Output: handlers on the ``pegbind`` and ``pegbind.progress`` loggers.
"""
from __future__ import annotations

import logging
import shutil
import sys


def configure(verbose: bool, status: bool) -> None:
    """``verbose``: pegbind's log (the phases, each command a build runs, their times) on
    stderr; ``status``: the ``pegbind.progress`` log as one status line rewritten in place.
    Called again, it takes back what an earlier call set up and the new one does not want."""
    progress = logging.getLogger("pegbind.progress")
    progress.propagate = False  # -v says it after the fact, with the time taken
    progress.handlers = [h for h in progress.handlers if not isinstance(h, StatusLine)]
    if status:
        progress.addHandler(StatusLine())
        progress.setLevel(logging.INFO)
    logger = logging.getLogger("pegbind")
    if verbose and not any(isinstance(h, StderrHandler) for h in logger.handlers):
        handler = StderrHandler()
        handler.setFormatter(logging.Formatter("pegbind: %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    elif not verbose:
        logger.setLevel(logging.WARNING)


class StderrHandler(logging.Handler):
    """Prints to the sys.stderr of the moment (tests replace it)."""

    def emit(self, record: logging.LogRecord) -> None:
        print(self.format(record), file=sys.stderr)


class StatusLine(logging.Handler):
    """What runs now, on one terminal line rewritten in place."""

    showing = False

    def emit(self, record: logging.LogRecord) -> None:
        width = shutil.get_terminal_size().columns - 1
        sys.stderr.write(f"\r\033[K{f'pegbind: {record.getMessage()}'[:width]}")
        sys.stderr.flush()
        StatusLine.showing = True

    @staticmethod
    def clear() -> None:
        """Take the line away, so that what is printed next starts a clean line."""
        if StatusLine.showing:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            StatusLine.showing = False
