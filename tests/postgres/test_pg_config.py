"""Configuration and bad input: URL resolution, options, clear errors at start."""

from __future__ import annotations

import pytest

import tether
from tether.errors import ConfigurationError
from tether.stores.postgres import DEFAULT_URL, PostgresBackend

pytestmark = pytest.mark.postgres


def test_url_resolution_order() -> None:
    env = {"TETHER_POSTGRES_URL": "postgresql://a/x", "DATABASE_URL": "postgresql://b/y"}
    assert PostgresBackend("postgresql://c/z", env=env).url == "postgresql://c/z"
    assert PostgresBackend(env=env).url == "postgresql://a/x"
    assert PostgresBackend(env={"DATABASE_URL": "postgresql://b/y"}).url == "postgresql://b/y"
    assert PostgresBackend(env={}).url == DEFAULT_URL


def test_options_by_argument_and_environment() -> None:
    env = {"TETHER_POSTGRES_POOL_SIZE": "7", "TETHER_POSTGRES_NAMESPACE": "app_one"}
    from_env = PostgresBackend(env=env)
    assert (from_env.pool_size, from_env.namespace) == (7, "app_one")
    explicit = PostgresBackend(pool_size=3, namespace="app_two", env=env)
    assert (explicit.pool_size, explicit.namespace) == (3, "app_two")
    default = PostgresBackend(env={})
    assert (default.pool_size, default.namespace) == (10, "tether")


def test_bad_options_are_clear() -> None:
    with pytest.raises(ConfigurationError, match="namespace 'Bad-Name'"):
        PostgresBackend(namespace="Bad-Name", env={})
    with pytest.raises(ConfigurationError, match="TETHER_POSTGRES_POOL_SIZE='many'"):
        PostgresBackend(env={"TETHER_POSTGRES_POOL_SIZE": "many"})
    with pytest.raises(ConfigurationError, match="pool_size"):
        PostgresBackend(pool_size=0, env={})


def test_password_is_redacted() -> None:
    backend = PostgresBackend("postgresql://me:s3cret@db.example:6543/app", env={})
    assert "s3cret" not in backend.url
    assert backend.url == "postgresql://me:***@db.example:6543/app"


def test_open_backend_routes_postgres_urls() -> None:
    backend = tether.stores.backend_from_url("postgres://h/db", namespace="n1")
    assert isinstance(backend, PostgresBackend)


def test_a_bare_postgres_url_follows_the_same_chain_as_the_backend() -> None:
    env = {"TETHER_POSTGRES_URL": "postgresql://a/x", "DATABASE_URL": "postgresql://b/y"}
    for bare in ("postgresql://", "postgres://"):
        assert tether.stores.backend_from_url(bare, env=env).url == "postgresql://a/x"
        only_database = {"DATABASE_URL": "postgresql://b/y", "TETHER_POSTGRES_NAMESPACE": "n2"}
        backend = tether.stores.backend_from_url(bare, env=only_database)
        assert (backend.url, backend.namespace) == ("postgresql://b/y", "n2")  # type: ignore[attr-defined]
        assert tether.stores.backend_from_url(bare, env={}).url == DEFAULT_URL
    # A URL that names a server wins over the variables.
    assert tether.stores.backend_from_url("postgresql://c/z", env=env).url == "postgresql://c/z"


async def test_open_backend_reads_database_url_from_its_env(pg_url: str, pg_namespace: str) -> None:
    env = {"DATABASE_URL": pg_url, "TETHER_POSTGRES_NAMESPACE": pg_namespace}
    async with tether.open_backend("postgresql://", env=env) as backend:
        assert isinstance(backend, PostgresBackend)
        assert backend.namespace == pg_namespace
        await backend.stores.workflow.write_stream("r1", "s", [b"x"])
        chunks, _ = await backend.stores.workflow.read_stream("r1", "s")
        assert [c.data for c in chunks] == [b"x"]


async def test_unreachable_database_fails_at_start() -> None:
    backend = PostgresBackend("postgresql://127.0.0.1:1/nowhere", connect_timeout=2, env={})
    with pytest.raises(ConfigurationError, match=r"cannot reach PostgreSQL at 127\.0\.0\.1:1"):
        await backend.migrate()
    with pytest.raises(ConfigurationError, match="Is the server running"):
        await backend.connect()


async def test_wrong_credentials_are_clear(pg_url: str) -> None:
    url = pg_url.replace("postgres@", "no_such_tether_user@", 1)
    if url == pg_url:
        url = pg_url.replace("://", "://no_such_tether_user@", 1)
    backend = PostgresBackend(url, env={})
    with pytest.raises(ConfigurationError, match="refused user 'no_such_tether_user'"):
        await backend.migrate()


async def test_missing_database_is_clear(pg_url: str) -> None:
    url = pg_url.rsplit("/", 1)[0] + "/no_such_tether_db"
    with pytest.raises(ConfigurationError, match="no such database"):
        await PostgresBackend(url, env={}).connect()


async def test_with_nothing_set_the_error_says_the_default_was_tried() -> None:
    # No URL, no TETHER_POSTGRES_URL, no DATABASE_URL: the default is tried, and the
    # error says so and names the variables (the test server has no database 'tether',
    # and a machine without a server refuses the connection).
    env = {"TETHER_POSTGRES_URL": "", "DATABASE_URL": ""}
    with pytest.raises(ConfigurationError) as refused:
        async with tether.open_backend("postgresql://", env=env, connect_timeout=2):
            pass
    message = str(refused.value)
    assert f"neither TETHER_POSTGRES_URL nor DATABASE_URL set, so the default {DEFAULT_URL}" in (
        message
    )


async def test_the_error_names_the_variable_that_gave_the_url() -> None:
    env = {"DATABASE_URL": "postgresql://127.0.0.1:1/nowhere"}
    with pytest.raises(
        ConfigurationError, match=r"(?s)127\.0\.0\.1:1.*\(the URL of DATABASE_URL\)"
    ):
        async with tether.open_backend("postgres://", env=env, connect_timeout=2):
            pass


def test_a_scheme_alone_is_refused_with_the_url_it_meant() -> None:
    with pytest.raises(ConfigurationError, match=r"'postgres' is a backend scheme.*'postgres://'"):
        tether.stores.backend_from_url("postgres")
    with pytest.raises(ConfigurationError, match=r"reads TETHER_POSTGRES_URL, then DATABASE_URL"):
        tether.stores.backend_from_url("postgresql:")
    with pytest.raises(ConfigurationError, match=r"write 'memory://'$"):
        tether.stores.backend_from_url("memory")
