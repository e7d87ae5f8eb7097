"""A :class:`~gofer.models.types.LanguageModel` for any OpenAI-compatible chat
completions endpoint (OpenRouter, vLLM, Ollama, llama.cpp's server, a gateway).

It is the official ``openai`` package's ``AsyncOpenAI`` with a ``base_url``: its
timeouts, its retries with backoff on 429 and 5xx (honouring ``Retry-After``),
and cancellation are used as they are. This module is the one I/O seam of
:mod:`gofer.models`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from types import TracebackType
from typing import Any, Literal

import openai
from openai import AsyncOpenAI

from gofer.errors import ModelError
from gofer.models.switch import check_model_request
from gofer.models.types import CallMeter, Completion, Message, Usage

__all__ = ["OpenAIChatModel", "ReasoningEffort"]

log = logging.getLogger("gofer.models")

ReasoningEffort = Literal["minimal", "low", "medium", "high"]

_NO_KEY = "no-key"  # local servers take any key; the client insists on one


class OpenAIChatModel:
    """One model on one OpenAI-compatible endpoint.

    ``timeout_s`` bounds each attempt, ``max_retries`` how often a 429, a 5xx, a
    timeout or a dropped connection is retried (with the client's backoff).
    ``reasoning_effort`` is sent when given; a route that refuses the parameter
    (400 naming it) is asked again without it, and not sent it again.
    Use ``async with`` or call :meth:`aclose`.
    """

    def __init__(
        self,
        *,
        model: str,
        base_url: str,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        max_retries: int = 2,
        reasoning_effort: ReasoningEffort | None = None,
        temperature: float | None = None,
        max_output_tokens: int | None = None,
    ) -> None:
        self._model = model
        self._base_url = base_url
        self._effort = reasoning_effort
        self._temperature = temperature
        self._max_tokens = max_output_tokens
        self._client = AsyncOpenAI(
            base_url=base_url,
            api_key=api_key or _NO_KEY,
            timeout=timeout_s,
            max_retries=max_retries,
        )

    @property
    def name(self) -> str:
        """The model's name on its endpoint."""
        return self._model

    @property
    def base_url(self) -> str:
        """The endpoint."""
        return self._base_url

    def __repr__(self) -> str:  # never the key
        return f"OpenAIChatModel(model={self._model!r}, base_url={self._base_url!r})"

    async def complete(
        self, messages: Sequence[Message], *, meter: CallMeter | None = None
    ) -> Completion:
        """Send ``messages``; raises MODEL_TIMEOUT, MODEL_UNREACHABLE, MODEL_REFUSED or
        MODEL_ERROR (after the client's own retries)."""
        check_model_request(self._base_url)
        if meter is not None:
            meter.take()
        extra: dict[str, Any] = {}
        if self._temperature is not None:
            extra["temperature"] = self._temperature
        if self._max_tokens is not None:
            extra["max_completion_tokens"] = self._max_tokens
        if self._effort is not None:
            extra["reasoning_effort"] = self._effort
        try:
            return await self._send(messages, extra)
        except openai.BadRequestError as exc:
            if "reasoning_effort" not in extra or "reasoning" not in str(exc.message).lower():
                raise _refused(exc) from None
            log.info(
                "model %s: the route takes no reasoning effort; asking without it", self._model
            )
            self._effort = None
            del extra["reasoning_effort"]
            try:
                return await self._send(messages, extra)
            except openai.BadRequestError as again:
                raise _refused(again) from None

    async def _send(self, messages: Sequence[Message], extra: dict[str, Any]) -> Completion:
        try:
            reply = await self._client.chat.completions.create(
                model=self._model,
                messages=[{"role": m.role, "content": m.content} for m in messages],  # type: ignore[misc]
                **extra,
            )
        except openai.BadRequestError:
            raise
        except openai.APITimeoutError:
            raise ModelError(
                f"the model {self._model} did not answer in time",
                code="MODEL_TIMEOUT",
                model=self._model,
            ) from None
        except openai.APIConnectionError:
            raise ModelError(
                f"the model endpoint {self._base_url} cannot be reached",
                code="MODEL_UNREACHABLE",
                model=self._model,
            ) from None
        except openai.APIStatusError as exc:
            raise ModelError(
                f"the model {self._model} answered HTTP {exc.status_code}",
                code="MODEL_ERROR",
                model=self._model,
                status=exc.status_code,
            ) from None
        if not reply.choices:
            raise ModelError(
                f"the model {self._model} sent no choices", code="MODEL_ERROR", model=self._model
            )
        choice = reply.choices[0]
        usage = reply.usage
        return Completion(
            text=choice.message.content or "",
            usage=Usage(
                input_tokens=usage.prompt_tokens if usage else 0,
                output_tokens=usage.completion_tokens if usage else 0,
            ),
            finish_reason=str(choice.finish_reason or "unknown"),
            model=reply.model or self._model,
        )

    async def aclose(self) -> None:
        """Close the HTTP client (idempotent)."""
        await self._client.close()

    async def __aenter__(self) -> OpenAIChatModel:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()


def _refused(exc: openai.BadRequestError) -> ModelError:
    return ModelError(
        f"the model endpoint refused the request (HTTP {exc.status_code})",
        code="MODEL_REFUSED",
        status=exc.status_code,
    )
