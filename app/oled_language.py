"""The OLED's language: the config's, until one is chosen on the OLED's Language menu,
which is kept in the data folder (:data:`FILE`) and spoken at every start after."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from companion.i18n import ENGLISH, chosen_language, language

#: The file in the data folder that keeps the language chosen on the OLED.
FILE = "oled_language"

log = logging.getLogger(__name__)


def starting_language(data: Path, configured: object) -> str:
    """The language the OLED speaks at start: the one kept from its menu, else the
    config's ``[table] language`` (one naming no shipped language: a log line, English)."""
    try:
        kept = (data / FILE).read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        kept = ""
    except (OSError, UnicodeDecodeError) as err:
        log.warning("the OLED's language kept in %s could not be read (%s): the config's "
                    "is spoken", data / FILE, err)
        kept = ""
    if kept and (found := language(kept)) is not None:
        return found
    if kept:
        log.warning("%s names no language the companion speaks (%r): the config's is "
                    "spoken", data / FILE, kept[:40])
    return chosen_language(configured, "[table] language") or ENGLISH


def keep_language(data: Path, chosen: str) -> None:
    """Keep the language chosen on the OLED for the next starts (written whole, then
    renamed). A failure is logged: the OLED speaks it until the companion stops."""
    path = data / FILE
    spare = path.with_name(f".{FILE}.new")
    try:
        spare.write_text(chosen + "\n", encoding="utf-8")
        os.replace(spare, path)
    except OSError as err:
        log.error("the OLED's language %r could not be kept in %s (%s): it is spoken until "
                  "the companion stops", chosen, path, err)
