"""The pytest plugin (entry point ``tether``): options and fixtures for contract suites.

It adds ``--tether-postgres-url`` and the ``tether_postgres_url`` fixture, which skips
the test when no Postgres answers — except when the ``CI`` environment variable is
set, where an unreachable server fails the test instead of hiding it; and
``--tether-backend``, the backend URL `tether.testing.contract.suite` tests. The plugin
does nothing unless its fixture or that module is used.
"""

from __future__ import annotations

import os

import pytest

__all__ = ["pytest_addoption", "tether_postgres_url"]

DEFAULT_TEST_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/test"


def pytest_addoption(parser: pytest.Parser) -> None:
    """Register tether's command-line options."""
    group = parser.getgroup("tether")
    group.addoption(
        "--tether-postgres-url",
        default=os.environ.get("TETHER_TEST_POSTGRES_URL", DEFAULT_TEST_POSTGRES_URL),
        help="PostgreSQL URL for tether's Postgres tests (default: %(default)s)",
    )
    group.addoption(
        "--tether-backend",
        default=os.environ.get("TETHER_TEST_BACKEND"),
        help="backend URL tether.testing.contract.suite tests; {tmp_path} and {name} in it "
        "make a fresh store per test (default: $TETHER_TEST_BACKEND)",
    )


@pytest.fixture(scope="session")
def tether_postgres_url(request: pytest.FixtureRequest) -> str:
    """The Postgres URL for tests; skips (or fails under CI) when it does not answer."""
    url = str(request.config.getoption("--tether-postgres-url"))
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:
        message = f"PostgreSQL at {url!r} is not reachable: {exc}"
        if os.environ.get("CI"):
            pytest.fail(message + " (CI is set: Postgres tests must run)")
        pytest.skip(message)
    return url
