"""The web tests' fixtures (a fresh app over a fresh table) for the hostile tests too."""

from tests.web.conftest import (  # noqa: F401
    app,
    client,
    clock,
    host,
    runner,
    server,
    services,
)
