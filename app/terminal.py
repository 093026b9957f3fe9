"""The language the command line speaks to the person at the terminal (issue #40).

Chosen the way gettext programs choose it: the environment's ``LANGUAGE`` (a list of
preferences, ``pl:de``: the first shipped one), else the first of ``LC_ALL``,
``LC_MESSAGES`` and ``LANG`` that is set (Babel's :func:`~babel.default_locale` reads
them in that order). A locale naming no shipped language (``it_IT.UTF-8``) is spoken
in English, and :func:`unshipped_word` says so once, on standard error; ``C`` and
``POSIX`` (and nothing set at all) name no language: English, without a word.
``companion run`` then speaks the table's own language (app/runtime.py).

Only what a person reads is said in it (:func:`say`): the logs, the JSON a command
prints and the match files stay as they are.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import TextIO

from babel import default_locale

from companion.errors import CompanionError
from companion.i18n import ENGLISH, LANGUAGES, _, language, message, translate

#: The environment's variables naming a person's language, in gettext's order.
VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@dataclass(frozen=True)
class Terminal:
    """The language the terminal's environment asks for."""

    #: The shipped language spoken (English when the environment names none).
    language: str
    #: What the environment names (``de_DE``), or None when it names no language (unset,
    #: ``C``, ``POSIX``).
    named: str | None

    @property
    def unshipped(self) -> bool:
        """Whether the environment names a language the companion does not speak."""
        return self.named is not None and language(self.named) is None


def terminal() -> Terminal:
    """The terminal's language, from the environment (see the module)."""
    for entry in os.environ.get("LANGUAGE", "").split(":"):
        if (found := language(entry)) is not None:
            return Terminal(found, entry)
    named = default_locale(VARIABLES)
    if named is None or named.endswith("_POSIX"):  # Babel's name for C and POSIX
        return Terminal(ENGLISH, None)
    return Terminal(language(named) or ENGLISH, named)


def unshipped_word(term: Terminal) -> str:
    """The one word said when the environment names a language not shipped."""
    return translate(_("companion: the environment asks for {locale}, a language the "
                       "companion does not speak ({languages}): it speaks English",
                       locale=term.named or "", languages=", ".join(LANGUAGES)))


def say(text: object, file: TextIO | None = None) -> None:
    """Print ``text`` (a marked message: in the language spoken now) on a line."""
    print(translate(text), file=file or sys.stdout)


def refused(err: CompanionError) -> int:
    """Say why a command cannot go on (``companion: ...``, on standard error, in the
    language spoken now) and give the exit code a refusal exits with."""
    say(_("companion: {error}", error=message(err)), sys.stderr)
    return 2
