"""Where the companion keeps its match database, when no one says otherwise.

Both the command line and ``companion run`` (app/runtime.py) read these, so
they live here, below both.
"""

from __future__ import annotations

import os
from pathlib import Path

#: The match database's file name inside the data folder.
DB_NAME = "companion.db"


def default_data_dir() -> Path:
    """``$COMPANION_DATA``, else the user's data folder."""
    env = os.environ.get("COMPANION_DATA")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "table-companion"
