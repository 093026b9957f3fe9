"""The web tests' fixtures (a fresh app over a fresh table) for the hostile tests too."""

from tests.web.conftest import app, client, clock, host, runner, services  # noqa: F401
