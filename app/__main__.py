"""``python -m app``: the same as the ``companion`` command."""

import sys

from app.cli import main

sys.exit(main())
