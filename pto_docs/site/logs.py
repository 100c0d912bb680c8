"""Log helpers of a site build: the warning count of the summary line, the language prefix of a forked build's
log lines, and the one MkDocs warning that does not apply to our dirty builds."""

from __future__ import annotations

import logging

DIRTY_WARNING = "A 'dirty' build is being performed"


class WarningCounter(logging.Handler):
    """Counts the warnings (and worse) of one build process, for the summary line."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


class DropDirtyWarning(logging.Filter):
    """MkDocs warns about ``--dirty``; our dirty builds start from an empty directory and reuse only pages whose
    every input is unchanged, so the warning does not apply (and must not fail a strict build)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(DIRTY_WARNING)


class Prefix(logging.Filter):
    def __init__(self, prefix: str):
        super().__init__()
        self.prefix = prefix

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith(self.prefix):
            record.msg = self.prefix + str(record.msg)
        return True


def install_dirty_filter() -> None:
    """Once per process (the filter is kept by MkDocs' build logger, so it is not added twice)."""
    logger = logging.getLogger("mkdocs.commands.build")
    if not any(isinstance(f, DropDirtyWarning) for f in logger.filters):
        logger.addFilter(DropDirtyWarning())
