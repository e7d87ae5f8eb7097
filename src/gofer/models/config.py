"""Which model each pass uses, on which endpoint: one explicit configuration object.

Entry points (the CLI, a server) build a :class:`ModelsConfig` from the environment
(``gofer.config.config_from_env``) and hand it down; nothing here reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gofer.models.openai_chat import OpenAIChatModel, ReasoningEffort

__all__ = ["DEFAULT_MODELS", "ROLES", "ModelRoute", "ModelsConfig", "open_model"]

ROLES = ("planner", "rescue", "output", "decider")
"""The model passes, in the order the configuration names them."""

DEFAULT_MODELS: dict[str, str] = {
    "planner": "anthropic/claude-sonnet-4.5",
    "rescue": "openai/gpt-5-mini",
    "output": "openai/gpt-5-mini",
    "decider": "openai/gpt-5-nano",
}
"""The model each pass asks when its ``GOFER_*_MODEL`` is unset (OpenRouter names)."""

_EFFORT: dict[str, ReasoningEffort | None] = {
    "planner": None,
    "rescue": "low",
    "output": "low",
    "decider": None,
}
_TEMPERATURE: dict[str, float | None] = {
    "planner": 0.2,
    "rescue": None,
    "output": None,
    "decider": 1.0,
}


@dataclass(frozen=True, slots=True)
class ModelRoute:
    """One model on one endpoint, and how it is asked."""

    model: str
    base_url: str
    api_key: str | None = field(default=None, repr=False)
    reasoning_effort: ReasoningEffort | None = None
    temperature: float | None = None
    timeout_s: float = 60.0
    max_retries: int = 2


@dataclass(frozen=True, slots=True)
class ModelsConfig:
    """The model of each pass; a pass with None is not configured."""

    planner: ModelRoute | None = None
    rescue: ModelRoute | None = None
    output: ModelRoute | None = None
    decider: ModelRoute | None = None

    @classmethod
    def on_endpoint(
        cls,
        base_url: str | None,
        api_key: str | None = None,
        *,
        models: dict[str, str | None] | None = None,
        endpoints: dict[str, tuple[str | None, str | None]] | None = None,
        timeout_s: float = 60.0,
    ) -> ModelsConfig:
        """Every pass on ``base_url`` (none when it is None), each with its model name
        from ``models`` or :data:`DEFAULT_MODELS`; ``endpoints`` gives a pass its own
        ``(base_url, api_key)``."""
        routes: dict[str, ModelRoute | None] = {}
        for role in ROLES:
            url, key = (endpoints or {}).get(role, (None, None))
            url, key = url or base_url, key or api_key
            if not url:
                routes[role] = None
                continue
            routes[role] = ModelRoute(
                model=(models or {}).get(role) or DEFAULT_MODELS[role],
                base_url=url,
                api_key=key,
                reasoning_effort=_EFFORT[role],
                temperature=_TEMPERATURE[role],
                timeout_s=timeout_s,
            )
        return cls(**routes)

    def route(self, role: str) -> ModelRoute | None:
        """The route of ``role`` (one of :data:`ROLES`)."""
        if role not in ROLES:
            raise ValueError(f"unknown model role {role!r}")
        route: ModelRoute | None = getattr(self, role)
        return route


def open_model(route: ModelRoute) -> OpenAIChatModel:
    """The chat model a route names (close it with ``aclose``)."""
    return OpenAIChatModel(
        model=route.model,
        base_url=route.base_url,
        api_key=route.api_key,
        timeout_s=route.timeout_s,
        max_retries=route.max_retries,
        reasoning_effort=route.reasoning_effort,
        temperature=route.temperature,
    )
