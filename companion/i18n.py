"""Every word a person reads, in the language of whoever reads it.

A message is made in English, marked with :func:`_` (or :func:`N_` for one with a
count), and said in a language only when it is shown: one refusal may be drawn on
the OLED in the table's language and sent to a phone in the phone's. So :func:`_`
returns a :class:`Text`: a ``str`` holding the English words (so logs, the API's
field names and every caller that treats it as text keep working unchanged) that
also carries its message id and named placeholders, and :func:`translate` says it
in a language at output. Placeholders are named, ``{name}``, so a translation may
put them in its own order; a placeholder's value that is itself a :class:`Text` is
said in the same language.

The catalogs are gettext ``.po`` files under ``companion/locale/<lang>/LC_MESSAGES/``,
one per domain: :data:`DOMAIN` for Python and the page templates, :data:`SCRIPTS`
for the pages' scripts (which get their strings from the page, not from a copy of
their own; web/i18n.py). Babel reads a ``.po`` and compiles it in memory the first
time a language is used (a few milliseconds; no compiled ``.mo`` to build or to go
stale), and gives each language its plural rule (Polish has three forms).

English is the source language: it has no catalog, and a message not (yet)
translated in a catalog is said in English (tests/i18n holds every shipped catalog
complete). The core imports no I/O library: this module reads its own package data,
as companion/ui/text.py reads the fonts.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

LOCALE_DIR = Path(__file__).parent / "locale"
#: The domain of Python's and the templates' messages, and of the scripts'.
DOMAIN, SCRIPTS = "companion", "scripts"
#: The source language (no catalog: a message's id is its English words).
ENGLISH = "en"
#: The languages shipped, English first: each but English has a catalog per domain.
LANGUAGES: tuple[str, ...] = ("en", "de", "fr", "es", "pl")
#: Each language by its own name, for a menu or a picker (never translated: a person
#: looks for the name of their own language).
NAMES: Mapping[str, str] = {"en": "English", "de": "Deutsch",  # i18n: not said
                            "fr": "Français",  # i18n: not said (never translated)
                            "es": "Español", "pl": "Polski"}  # i18n: not said
#: A placeholder in a message: ``{name}``.
PLACEHOLDER = re.compile(r"\{(\w+)\}")

log = logging.getLogger(__name__)


class Text(str):
    """A message in English that can be said in another language (see the module).

    ``msgid`` (and ``plural`` with its count ``n``) name the message in the catalog,
    with ``context`` where the same English words need other words in another language
    (a navigation bar's "History" is shorter than a menu's); ``params`` fill its
    placeholders. Equal to, and hashed as, its English words.
    """

    __slots__ = ("context", "msgid", "n", "params", "plural")
    msgid: str
    plural: str | None
    n: int | None
    params: tuple[tuple[str, Any], ...]
    context: str | None

    def __new__(cls, msgid: str, params: Mapping[str, Any] | None = None,
                plural: str | None = None, n: int | None = None,
                context: str | None = None) -> Text:
        values = dict(params or {})
        if plural is not None:
            values.setdefault("n", n)
        english = plural if plural is not None and n != 1 else msgid
        self = super().__new__(cls, english.format(**values) if values else english)
        self.msgid, self.plural, self.n, self.context = msgid, plural, n, context
        self.params = tuple(values.items())
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Text, (self.msgid, dict(self.params), self.plural, self.n, self.context))

    def __repr__(self) -> str:
        return f"_({str.__repr__(self)})"


def _(msgid: str, /, **params: Any) -> Text:
    """The message ``msgid`` (its English words, named ``{placeholders}`` filled from
    ``params``), to be said in a reader's language at output (:func:`translate`)."""
    return Text(msgid, params)


def N_(singular: str, plural: str, n: int, /, **params: Any) -> Text:
    """The message with a count ``n`` (``{n}`` in it): each language picks its form."""
    return Text(singular, params, plural, n)


def C_(context: str, msgid: str, /, **params: Any) -> Text:
    """The message ``msgid`` where ``context`` says (``C_("nav", "History")``): a
    catalog entry of its own, for the same English words said otherwise there."""
    return Text(msgid, params, context=context)


@cache
def _read(language: str, domain: str) -> Catalog:
    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po"
    with path.open("rb") as file:
        return read_po(file, locale=language, domain=domain)


@cache
def translations(language: str, domain: str = DOMAIN) -> NullTranslations:
    """The catalog of ``domain`` in ``language`` (English or one not shipped: none, so
    every message is said in English). Compiled from its ``.po`` once."""
    if language == ENGLISH or language not in LANGUAGES:
        return NullTranslations()
    compiled = io.BytesIO()
    write_mo(compiled, _read(language, domain))
    compiled.seek(0)
    return Translations(compiled, domain=domain)


@cache
def words(language: str, domain: str = SCRIPTS,
          used: Callable[[str], bool] | None = None) -> Mapping[str, str]:
    """Each translated message of ``domain`` in ``language`` by its English words (none
    for English): what a page hands its scripts (web/i18n.py). ``used``: only the
    messages of a file it says yes to (the catalog's locations; None: all). Fuzzy and
    empty entries are left out, as from the compiled catalog; so are messages with a
    context or a count (a script takes none)."""
    if language == ENGLISH or language not in LANGUAGES:
        return {}
    return {m.id: m.string for m in _read(language, domain)
            if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string
            and not m.fuzzy and not m.context
            and (used is None or any(used(path) for path, _line in m.locations))}


def translate(text: object, language: str | None = None) -> str:
    """``text`` said in ``language`` (None: the one :func:`speaking` set, else English).

    A :class:`Text` is looked up in the catalog and its placeholders filled, each
    placeholder that is a :class:`Text` said in the same language; anything else is
    returned as it is (a name, a number: words no catalog has)."""
    if not isinstance(text, Text):
        return text if isinstance(text, str) else str(text)
    language = language or _speaking.get()
    if language == ENGLISH:
        return str.__str__(text)
    catalog = translations(language)
    said: str
    if text.plural is not None:
        said = str(catalog.ngettext(text.msgid, text.plural, text.n or 0))
    elif text.context is not None:
        said = str(catalog.pgettext(text.context, text.msgid))
    else:
        said = str(catalog.gettext(text.msgid))
    if not text.params:
        return said
    values = {k: translate(v, language) for k, v in text.params}
    try:
        return said.format(**values)
    except (KeyError, IndexError, ValueError):
        # A catalog entry whose placeholders do not match its message's (tests/i18n
        # refuses one; a catalog edited by hand on a Pi may still hold one): the
        # English words, rather than no words at all.
        log.warning("the %s catalog's %r has placeholders the message does not",
                    language, text.msgid)
        return str.__str__(text)


def said(value: Any, language: str) -> Any:
    """``value`` (JSON-ready data: dicts, lists, tuples, scalars) with every :class:`Text`
    in it, as a value or a key, said in ``language``; the rest as it is (a new dict or
    list where one was walked). In English a :class:`Text` already is its words, so
    ``value`` itself comes back, not walked. The one walker for every answer that carries
    messages: the table's JSON (web/i18n.py) and the hall's (hall/)."""
    if language == ENGLISH:
        return value

    def say_in(item: Any) -> Any:
        if isinstance(item, Text):
            return translate(item, language)
        if isinstance(item, str):
            return item
        if isinstance(item, dict):
            return {say_in(k) if isinstance(k, Text) else k: say_in(v)
                    for k, v in item.items()}
        if isinstance(item, (list, tuple)):
            return [say_in(v) for v in item]
        return item

    return say_in(value)


_speaking: ContextVar[str] = ContextVar("speaking", default=ENGLISH)


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Within the block, :func:`translate` without a language says ``language``: the
    OLED's drawing (companion/ui/oled.py) is one such output step, whose helpers all
    translate the texts they are given (companion/ui/canvas.py)."""
    token = _speaking.set(language if language in LANGUAGES else ENGLISH)
    try:
        yield
    finally:
        _speaking.reset(token)


def spoken() -> str:
    """The language :func:`speaking` set (English outside any)."""
    return _speaking.get()


def language(value: object) -> str | None:
    """The shipped language ``value`` names ("de", "de_DE", "de-AT", "DE"), or None when
    it names none (malformed, or a language not shipped)."""
    if not isinstance(value, str) or not value or len(value) > 35:
        return None
    try:
        parsed = Locale.parse(value.strip().replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError):
        return None
    return parsed.language if parsed.language in LANGUAGES else None


def chosen_language(value: object, key: str) -> str | None:
    """The shipped language a setting ``key`` (``[table] language``, ``--language``)
    names; None when unset. A value naming none is said once in the log, naming the
    key, and English is spoken: a club's language is never a reason not to start."""
    if value is None or value == "":
        return None
    found = language(value)
    if found is None:
        log.warning("%s = %r is not a language the companion speaks (%s): English is "
                    "spoken", key, value if not isinstance(value, str) else value[:40],
                    ", ".join(LANGUAGES))
        return ENGLISH
    return found


def message(err: BaseException) -> str:
    """What an error says to a person, kept translatable: its message as raised
    (a :class:`Text` when it was made with :func:`_`), else ``str(err)``."""
    args = err.args
    if len(args) == 1 and isinstance(args[0], Text):
        return args[0]
    return str(err)


__all__ = [
    "C_",
    "DOMAIN",
    "ENGLISH",
    "LANGUAGES",
    "NAMES",
    "N_",
    "SCRIPTS",
    "Text",
    "_",
    "chosen_language",
    "language",
    "message",
    "said",
    "speaking",
    "spoken",
    "translate",
    "translations",
    "words",
]
