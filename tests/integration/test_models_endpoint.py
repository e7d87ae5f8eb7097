"""OpenAIChatModel against a local OpenAI-compatible server with scripted answers."""

from __future__ import annotations

import asyncio
import json

import pytest

from gofer.errors import ModelError
from gofer.models import (
    CallMeter,
    ChatServer,
    Message,
    OpenAIChatModel,
    Reply,
    set_model_requests,
)

ASK = [Message("system", "be brief"), Message("user", "say hi")]


def model_on(server: ChatServer, **kwargs: object) -> OpenAIChatModel:
    return OpenAIChatModel(
        model="test-model", base_url=server.base_url, api_key="sk-test", **kwargs
    )  # type: ignore[arg-type]


async def test_an_answer_brings_its_text_usage_and_finish_reason(chat_server: ChatServer) -> None:
    chat_server.add(Reply(text="hello there", finish_reason="length"))
    async with model_on(chat_server) as model:
        answer = await model.complete(ASK)
    assert answer.text == "hello there"
    assert answer.finish_reason == "length"
    assert answer.usage.output_tokens > 0 and answer.usage.input_tokens > 0
    sent = chat_server.requests[0]
    assert sent["model"] == "test-model"
    assert sent["messages"] == [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "say hi"},
    ]


@pytest.mark.parametrize("status", [429, 500, 502, 503])
async def test_a_busy_or_broken_endpoint_is_retried_until_it_answers(
    chat_server: ChatServer, status: int
) -> None:
    chat_server.add(Reply(status=status), Reply(status=status), "finally")
    meter = CallMeter(limit=5)
    async with model_on(chat_server, max_retries=2) as model:
        answer = await model.complete(ASK, meter=meter)
    assert answer.text == "finally"
    assert len(chat_server.requests) == 3
    assert meter.used == 1  # one call, however many attempts the client made


async def test_an_endpoint_that_stays_broken_fails_with_the_status(
    chat_server: ChatServer,
) -> None:
    chat_server.add(Reply(status=503), Reply(status=503))
    async with model_on(chat_server, max_retries=1) as model:
        with pytest.raises(ModelError) as caught:
            await model.complete(ASK)
    assert caught.value.code == "MODEL_ERROR"
    assert caught.value.details["status"] == 503


async def test_a_model_that_does_not_answer_in_time_is_a_timeout(chat_server: ChatServer) -> None:
    chat_server.add(Reply(text="late", delay_s=1.5))
    async with model_on(chat_server, timeout_s=0.2, max_retries=0) as model:
        with pytest.raises(ModelError) as caught:
            await model.complete(ASK)
    assert caught.value.code == "MODEL_TIMEOUT"


async def test_an_unreachable_endpoint_says_so() -> None:
    with ChatServer() as server:
        url = server.base_url
    async with OpenAIChatModel(model="m", base_url=url, max_retries=0) as model:
        with pytest.raises(ModelError) as caught:
            await model.complete(ASK)
    assert caught.value.code == "MODEL_UNREACHABLE"


async def test_a_call_can_be_cancelled(chat_server: ChatServer) -> None:
    chat_server.add(Reply(text="late", delay_s=1.0))
    async with model_on(chat_server) as model:
        call = asyncio.create_task(model.complete(ASK))
        while not chat_server.requests:
            await asyncio.sleep(0.01)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call


async def test_reasoning_effort_is_sent_and_dropped_where_the_route_refuses_it(
    chat_server: ChatServer,
) -> None:
    chat_server.add(
        Reply(status=400, text="Unrecognized request argument: reasoning_effort"), "one", "two"
    )
    async with model_on(chat_server, reasoning_effort="low") as model:
        assert (await model.complete(ASK)).text == "one"
        assert (await model.complete(ASK)).text == "two"
    efforts = [r.get("reasoning_effort") for r in chat_server.requests]
    assert efforts == ["low", None, None]


async def test_reasoning_effort_reaches_a_route_that_takes_it(chat_server: ChatServer) -> None:
    chat_server.add("ok")
    async with model_on(chat_server, reasoning_effort="high") as model:
        await model.complete(ASK)
    assert chat_server.requests[0]["reasoning_effort"] == "high"


async def test_a_spent_meter_sends_nothing(chat_server: ChatServer) -> None:
    chat_server.add("a", "b")
    meter = CallMeter(limit=1)
    async with model_on(chat_server) as model:
        await model.complete(ASK, meter=meter)
        with pytest.raises(ModelError) as caught:
            await model.complete(ASK, meter=meter)
    assert caught.value.code == "MODEL_BUDGET_SPENT"
    assert len(chat_server.requests) == 1


async def test_the_switch_blocks_every_real_request(chat_server: ChatServer) -> None:
    chat_server.add("never")
    old = set_model_requests("block")
    try:
        async with model_on(chat_server) as model:
            with pytest.raises(ModelError) as caught:
                await model.complete(ASK)
    finally:
        set_model_requests(old)
    assert caught.value.code == "MODEL_REQUESTS_BLOCKED"
    assert chat_server.requests == []


async def test_the_suite_lets_only_loopback_endpoints_through() -> None:
    async with OpenAIChatModel(model="m", base_url="https://models.invalid/v1") as model:
        with pytest.raises(ModelError) as caught:
            await model.complete(ASK)
    assert caught.value.code == "MODEL_REQUESTS_BLOCKED"


async def test_the_key_is_sent_as_a_bearer_token_and_never_shown(chat_server: ChatServer) -> None:
    model = model_on(chat_server)
    assert "sk-test" not in repr(model)
    await model.aclose()
    assert json.dumps(chat_server.requests).count("sk-test") == 0
