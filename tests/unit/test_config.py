"""Where the configuration puts what the operator did not name."""

from __future__ import annotations

from gofer.config import config_from_env


def test_tokens_and_sessions_share_a_postgresql_store_by_default() -> None:
    url = "postgresql://gofer@db.internal/gofer"
    assert config_from_env({"GOFER_DB": url}).tokens == url
    named = config_from_env({"GOFER_DB": url, "GOFER_TOKENS": "/srv/gofer/tokens.db"})
    assert named.tokens == "/srv/gofer/tokens.db"


def test_tokens_stay_in_their_own_file_beside_a_sqlite_store() -> None:
    config = config_from_env({"XDG_DATA_HOME": "/home/a/.local/share"})
    assert config.tokens.endswith("tokens.db")
    assert config.tokens != config.db
    assert config_from_env({"GOFER_DB": "/tmp/x.db"}).tokens.endswith("tokens.db")
