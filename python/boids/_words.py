"""Refusals in Python's words: the command line's messages, checked by its own parser, with each
flag that a keyword gives named as that keyword (``max_speed`` for ``--max-speed``)."""

import contextlib
import re

from ._boids import param_rows

# The keywords Flock takes, as the table of parameters names them: a refusal names these.
FLOCK_KEYWORDS = frozenset(keyword for keyword, _ in param_rows())

_FLAG = re.compile(r"--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)")


def in_python_words(message, keywords, renamed=None):
    """`message` with every ``--flag`` whose keyword is in `keywords` (or that `renamed` maps)
    named as Python names it; other flags stay as they are."""
    renamed = renamed or {}

    def word(match):
        flag = match.group(1)
        if flag in renamed:
            return renamed[flag]
        keyword = flag.replace("-", "_")
        return keyword if keyword in keywords else match.group(0)

    return _FLAG.sub(word, message)


@contextlib.contextmanager
def python_words(keywords, renamed=None):
    """Raises a ValueError or RuntimeError from the block again in Python's words (the same
    type, chained to nothing: the command line's words are the same message)."""
    try:
        yield
    except (ValueError, RuntimeError) as refused:
        raise type(refused)(in_python_words(str(refused), keywords, renamed)) from None
