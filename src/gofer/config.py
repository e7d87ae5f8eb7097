"""gofer's configuration, read once at an entry point and passed on as an object.

Library code never reads the environment: the CLI, the server and the worker call
:func:`config_from_env` and hand the result down.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from gofer.errors import InvalidRequest
from gofer.models import ROLES, ModelsConfig
from gofer.runtime.types import FileLimits
from gofer.store.flows import FlowLimits
from gofer.surfaces.policy import BrowserPolicy, check_endpoint

__all__ = ["GoferConfig", "config_from_env", "default_db_path"]


def default_db_path(env: Mapping[str, str]) -> Path:
    """A SQLite file in the user's data directory (``$XDG_DATA_HOME`` or ~/.local/share)."""
    xdg = env.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg else Path(os.path.expanduser("~")) / ".local" / "share"
    return base / "gofer" / "gofer.db"


FLOW_DEFAULTS = FlowLimits()
FILE_DEFAULTS = FileLimits()


@dataclass(frozen=True, slots=True)
class GoferConfig:
    """Every setting flows.md names, with its default."""

    db: str
    chromium: str | None = None
    model_base_url: str | None = None
    model_api_key: str | None = field(default=None, repr=False)
    planner_model: str | None = None
    rescue_model: str | None = None
    output_model: str | None = None
    decider_model: str | None = None
    model_endpoints: dict[str, tuple[str | None, str | None]] | None = field(
        default=None, repr=False
    )
    tokens: str | None = None
    """Where ``gofer token`` keeps the bearer tokens ``gofer serve`` reads: a SQLite file
    or a ``postgresql://`` URL, as for ``db``."""
    server: str | None = None
    """The gofer server ``gofer start/await/...`` call (``--server`` overrides it)."""
    token: str | None = field(default=None, repr=False)
    """The bearer token those calls send."""
    secret_key: str | None = field(default=None, repr=False)
    """``GOFER_SECRET_KEY``: what fact values and answers are sealed with in the store
    (without it, a key file beside the store, made the first time)."""
    key_file: str | None = None
    """The key file a PostgreSQL store's values are sealed with when there is no
    ``secret_key`` (``secret.key`` in the user's data directory)."""
    allow_private: bool = False
    """``GOFER_ALLOW_PRIVATE=1``: the server faces' browsers may load loopback, private
    and metadata addresses (``gofer serve --allow-private``)."""
    browser_endpoints: tuple[str, ...] = ()
    """``GOFER_BROWSER_ENDPOINTS`` (comma-separated): the DevTools endpoints a served task
    may attach to."""
    no_sandbox: bool = False
    """``GOFER_NO_SANDBOX=1``: the operator runs Chromium without its sandbox."""
    browser_user: str | None = None
    """``GOFER_BROWSER_USER``: the unprivileged user the browser runs as under root
    (default ``gofer-browser``)."""
    browser_endpoint: str | None = None
    """``GOFER_BROWSER_ENDPOINT``: the DevTools endpoint of the operator's remote Chromium
    that every task of the process runs in (``gofer serve|worker --browser-endpoint``)."""
    live_address: str | None = None
    """``GOFER_LIVE_ADDRESS``: where ``gofer serve|worker`` serve the live views of the
    browsers they hold to the other servers (``HOST:PORT``; ``--live-address``)."""
    runtime_dir: str | None = None
    """``$XDG_RUNTIME_DIR``: where a SQLite store's wake-up sockets go when the folder
    beside the file makes too long a socket address (default: the temporary folder)."""
    live_cert: str | None = None
    """``GOFER_LIVE_CERT`` and ``GOFER_LIVE_KEY``: the certificate and key (PEM files)
    this process serves its live endpoint with over TLS (both, or neither)."""
    live_key: str | None = None
    live_ca: str | None = None
    """``GOFER_LIVE_CA``: the certificate authorities (a PEM file) the servers check
    the TLS holders' certificates against (default: the system's)."""
    flow_limits: FlowLimits = field(default_factory=FlowLimits)
    """``GOFER_FLOW_VERSIONS``, ``GOFER_FLOW_NAMES``, ``GOFER_FLOW_BYTES``: the saved
    flows kept per owner (versions per name, names, bytes at rest)."""
    file_limits: FileLimits = field(default_factory=FileLimits)
    """``GOFER_FILE_BYTES``, ``GOFER_FILE_COUNT``: the largest file a task takes or
    keeps, and the most files one task holds (and one owner's uploads waiting)."""

    def browser_policy(
        self, *, operator: bool, allow_private: bool = False, browser_endpoint: str | None = None
    ) -> BrowserPolicy:
        """The browsers' policy: for the operator's own tasks (``gofer run``, ``gofer
        demo``) any address and endpoint; for a server face (``gofer serve``, ``gofer
        worker``) private addresses only with ``allow_private`` or ``GOFER_ALLOW_PRIVATE``,
        and only the endpoints ``GOFER_BROWSER_ENDPOINTS`` names. Every task runs in the
        remote browser at ``browser_endpoint`` (else ``GOFER_BROWSER_ENDPOINT``) when one
        is named (``BROWSER_ENDPOINT_INVALID`` when it is no DevTools address)."""
        remote = browser_endpoint or self.browser_endpoint
        return BrowserPolicy(
            allow_private=operator or allow_private or self.allow_private,
            browser_endpoints=None if operator else frozenset(self.browser_endpoints),
            sandbox="off" if self.no_sandbox else "auto",
            browser_user=self.browser_user,
            remote=check_endpoint(remote) if remote else None,
        )

    @property
    def models(self) -> ModelsConfig:
        """The model passes this configuration switches on (none without a base URL)."""
        return ModelsConfig.on_endpoint(
            self.model_base_url,
            self.model_api_key,
            models={
                "planner": self.planner_model,
                "rescue": self.rescue_model,
                "output": self.output_model,
                "decider": self.decider_model,
            },
            endpoints=self.model_endpoints,
        )


def config_from_env(env: Mapping[str, str]) -> GoferConfig:
    """Build the configuration from environment variables (``GOFER_*``).

    Besides docs/flows.md's variables, ``GOFER_<ROLE>_BASE_URL`` and
    ``GOFER_<ROLE>_API_KEY`` (ROLE: PLANNER, RESCUE, OUTPUT, DECIDER) put one model pass
    on its own endpoint; ``GOFER_TOKENS`` is where the tokens and page sessions are kept
    (a SQLite file or a PostgreSQL URL; by default ``GOFER_DB`` when that is a
    PostgreSQL URL, so every server on it knows every token and sign-in, else tokens.db
    beside the default database),
    ``GOFER_SERVER`` and ``GOFER_TOKEN`` the server the remote commands call and the
    token they send, ``GOFER_SECRET_KEY`` the key fact values are sealed with in the
    store, ``GOFER_BROWSER_ENDPOINT`` the remote browser every task runs in,
    ``GOFER_LIVE_ADDRESS`` where a process serves its held browsers' live views.
    """

    def get(name: str) -> str | None:
        value = env.get(name, "").strip()
        return value or None

    db = get("GOFER_DB") or str(default_db_path(env))
    shared = db.startswith(("postgresql://", "postgres://"))
    return GoferConfig(
        db=db,
        chromium=get("GOFER_CHROMIUM"),
        model_base_url=get("GOFER_MODEL_BASE_URL"),
        model_api_key=get("GOFER_MODEL_API_KEY"),
        planner_model=get("GOFER_PLANNER_MODEL"),
        rescue_model=get("GOFER_RESCUE_MODEL"),
        output_model=get("GOFER_OUTPUT_MODEL"),
        decider_model=get("GOFER_DECIDER_MODEL"),
        model_endpoints={
            role: (get(f"GOFER_{role.upper()}_BASE_URL"), get(f"GOFER_{role.upper()}_API_KEY"))
            for role in ROLES
        },
        tokens=get("GOFER_TOKENS")
        or (db if shared else str(default_db_path(env).with_name("tokens.db"))),
        server=get("GOFER_SERVER"),
        token=get("GOFER_TOKEN"),
        secret_key=get("GOFER_SECRET_KEY"),
        key_file=str(default_db_path(env).with_name("secret.key")),
        allow_private=_flag(get("GOFER_ALLOW_PRIVATE")),
        browser_endpoints=tuple(
            e.strip() for e in (get("GOFER_BROWSER_ENDPOINTS") or "").split(",") if e.strip()
        ),
        no_sandbox=_flag(get("GOFER_NO_SANDBOX")),
        browser_user=get("GOFER_BROWSER_USER"),
        browser_endpoint=get("GOFER_BROWSER_ENDPOINT"),
        live_address=get("GOFER_LIVE_ADDRESS"),
        runtime_dir=get("XDG_RUNTIME_DIR"),
        live_cert=get("GOFER_LIVE_CERT"),
        live_key=get("GOFER_LIVE_KEY"),
        live_ca=get("GOFER_LIVE_CA"),
        flow_limits=FlowLimits(
            versions=_count("GOFER_FLOW_VERSIONS", get, FLOW_DEFAULTS.versions),
            names=_count("GOFER_FLOW_NAMES", get, FLOW_DEFAULTS.names),
            bytes=_count("GOFER_FLOW_BYTES", get, FLOW_DEFAULTS.bytes),
        ),
        file_limits=FileLimits(
            bytes=_count("GOFER_FILE_BYTES", get, FILE_DEFAULTS.bytes),
            count=_count("GOFER_FILE_COUNT", get, FILE_DEFAULTS.count),
        ),
    )


def _count(name: str, get: Callable[[str], str | None], default: int) -> int:
    value = get(name)
    if value is None:
        return default
    if not value.isdigit() or int(value) < 1:
        raise InvalidRequest(f"{name} must be a whole number of 1 or more", variable=name)
    return int(value)


def _flag(value: str | None) -> bool:
    return (value or "").lower() in ("1", "true", "yes", "on")
