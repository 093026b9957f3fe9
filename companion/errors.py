"""The companion's error types.

Every error the core raises on purpose derives from :class:`CompanionError`,
so callers (the command line, the web API, the button controller) can tell a
refused request from a bug. The two kinds of refused action also derive from
:class:`ValueError`, as python-chess does for illegal moves.
"""

from __future__ import annotations

from companion.i18n import _


class CompanionError(Exception):
    """Root of every error the companion raises deliberately."""


class InvalidAction(CompanionError, ValueError):
    """An action that is malformed: unknown type, missing or mistyped field.

    The message says which field is wrong and what shape is expected.
    """


class UnknownGame(InvalidAction):
    """A start names a game the catalog does not have (the web API's 404)."""


class IllegalAction(CompanionError, ValueError):
    """A well-formed action that the rules do not allow now.

    The message says why, and what is allowed instead.
    """


class NoMatch(IllegalAction):
    """An action, undo or redo arrived while no match is running."""


class UnknownPlayer(IllegalAction):
    """A player named in a request is not one of the table's players."""


class MatchInProgress(IllegalAction):
    """A new match was asked for while an unfinished one is running."""


class MatchFileError(CompanionError, ValueError):
    """A match file could not be read or replayed.

    ``line`` is the 1-based line number at fault and ``reason`` the cause,
    so a caller can print ``line 7: ...`` without parsing the message.
    """

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(_("line {line}: {reason}", line=line, reason=reason))
        self.line = line
        self.reason = reason


class StoreError(CompanionError):
    """The match database could not be opened or is not one of ours."""


class StoreDamaged(StoreError):
    """The match database or its write-ahead log is damaged (not merely unreadable).

    ``path`` is the file at fault and ``reason`` what is wrong with it, so
    the start-up can set that file aside and say so. When the damage is one
    stored entry the rules cannot replay, ``match_id`` and ``entry`` name it
    (entry 0: the match's start record; the entries before it are intact).
    """

    def __init__(self, path: str, reason: str, *, match_id: int | None = None,
                 entry: int | None = None) -> None:
        super().__init__(_("{path} is damaged: {reason}", path=path, reason=reason))
        self.path = path
        self.reason = reason
        self.match_id = match_id
        self.entry = entry


class StoreUnavailable(StoreError):
    """The match database cannot take a change now; the change was refused, nothing stored.

    ``kind`` says why, each with its own remedy in the message:

    - ``"gone"``: the database file was deleted or replaced while the companion ran,
      so a commit would go to a file no one will ever open again;
    - ``"full"``: the disk is full;
    - ``"read-only"``: the data folder's file system is read-only.

    ``screen`` is the same in the few words the OLED has room for.
    """

    KINDS = ("gone", "full", "read-only")

    def __init__(self, kind: str, message: str, screen: str) -> None:
        assert kind in self.KINDS, kind
        super().__init__(message)
        self.kind = kind
        self.screen = screen
