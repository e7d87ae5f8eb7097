"""The switch that makes real model requests fail (for test suites).

``set_model_requests("block")`` refuses every request a real model would send;
``"local"`` lets through only requests to this machine (a loopback base URL, such
as a test's scripted OpenAI-compatible server); ``"allow"`` is the default.
"""

from __future__ import annotations

import ipaddress
from typing import Literal
from urllib.parse import urlsplit

from gofer.errors import ModelError

__all__ = ["RequestPolicy", "check_model_request", "model_requests", "set_model_requests"]

RequestPolicy = Literal["allow", "local", "block"]

_policy: list[RequestPolicy] = ["allow"]


def set_model_requests(policy: RequestPolicy) -> RequestPolicy:
    """Set which real model requests may be sent; returns the policy it replaced."""
    if policy not in ("allow", "local", "block"):
        raise ValueError(f"unknown model request policy {policy!r}")
    old = _policy[0]
    _policy[0] = policy
    return old


def model_requests() -> RequestPolicy:
    """The policy in force."""
    return _policy[0]


def _is_local(base_url: str) -> bool:
    host = urlsplit(base_url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_model_request(base_url: str) -> None:
    """Raise MODEL_REQUESTS_BLOCKED when the policy forbids a request to ``base_url``."""
    policy = _policy[0]
    if policy == "allow" or (policy == "local" and _is_local(base_url)):
        return
    raise ModelError(
        f"model requests are switched off ({policy}); no request was sent",
        code="MODEL_REQUESTS_BLOCKED",
        policy=policy,
    )
