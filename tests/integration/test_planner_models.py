"""The planner against a local OpenAI-compatible server with scripted answers, inside
the task controller (scripted runs) and as plan_task's dry run."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable

import pytest

from gofer.errors import GoferError
from gofer.models import ChatServer, OpenAIChatModel, Reply
from gofer.planner import ModelPlanner
from gofer.tasks import ScriptedRunner, Tasks, TaskView
from gofer.tasks.testing import complete

GOOD = {
    "vars": {"cheapest": ""},
    "steps": [
        {"browse": "https://air.example.com/"},
        {"enter": "${email}", "into": "Email"},
        {"read": "the first result's price", "as": "cheapest"},
        {"stop_before": "paying for the booking"},
    ],
}
TASK = "Go to https://air.example.com/ and find the cheapest flight, then fill my email"


@pytest.fixture
async def model(chat_server: ChatServer) -> AsyncIterator[OpenAIChatModel]:
    async with OpenAIChatModel(
        model="planner", base_url=chat_server.base_url, max_retries=1, timeout_s=5
    ) as m:
        yield m


def facts(canary: Callable[[str], str]) -> dict[str, str]:
    return {
        "email": canary("asha.canary.7731@example.com"),
        "card number": canary("4111 1111 1111 1111"),
    }


async def finish(tasks: Tasks, view: TaskView) -> TaskView:
    return await tasks.await_task({"id": view.id, "timeout_ms": 20_000})


async def test_a_valid_plan_runs_and_the_model_sees_names_not_values(
    chat_server: ChatServer,
    model: OpenAIChatModel,
    canary: Callable[[str], str],
) -> None:
    chat_server.add(json.dumps(GOOD))
    runner = ScriptedRunner.of(complete({"cheapest": "₹7,346"}))
    async with Tasks(runner, planner=ModelPlanner(model)) as tasks:
        view = await finish(tasks, await tasks.start_task({"task": TASK, "facts": facts(canary)}))
        report = await tasks.task_report({"id": view.id})
    assert view.status.state == "done"
    assert report.records == {"cheapest": "₹7,346"}
    assert report.spend.model_calls == 1
    [sent] = chat_server.requests
    system, user = sent["messages"]
    assert system["role"] == "system" and "stop_before" in system["content"]
    assert TASK in user["content"] and "email" in user["content"]
    assert "card number" in user["content"]  # named as a secret, never its value
    body = chat_server.bodies[0]
    assert "asha.canary" not in body and "4111" not in body
    ran = runner.requests[0][1].flow
    assert len(ran.steps) == 4


async def test_prose_around_the_json_is_read(
    chat_server: ChatServer,
    model: OpenAIChatModel,
) -> None:
    chat_server.add("Here is your plan:\n```json\n" + json.dumps(GOOD) + "\n```\nEnjoy!")
    async with Tasks(ScriptedRunner(), planner=ModelPlanner(model)) as tasks:
        reply = await tasks.plan_task({"task": TASK, "facts": {"email": "a@b.c"}})
    assert reply.flow["steps"][0] == {"browse": "https://air.example.com/"}
    assert reply.questions == []


async def test_an_invalid_plan_goes_back_with_its_errors_and_is_repaired(
    chat_server: ChatServer,
    model: OpenAIChatModel,
) -> None:
    bad = {"steps": [{"browse": "https://air.example.com/"}, {"tap": "Search"}]}
    chat_server.add(json.dumps(bad), "not even json", json.dumps(GOOD))
    async with Tasks(ScriptedRunner(), planner=ModelPlanner(model)) as tasks:
        view = await finish(
            tasks, await tasks.start_task({"task": TASK, "facts": {"email": "a@b.c"}})
        )
        report = await tasks.task_report({"id": view.id})
    assert view.status.state == "done"
    assert report.spend.model_calls == 3
    second = chat_server.messages(1)
    assert second[-2] == {"role": "assistant", "content": json.dumps(bad)}
    assert second[-1]["content"].startswith("That flow is invalid:")
    assert "tap" in second[-1]["content"]
    third = chat_server.messages(2)
    assert "no JSON object" in third[-1]["content"]


async def test_a_plan_that_never_validates_fails_the_task_after_two_repairs(
    chat_server: ChatServer,
    model: OpenAIChatModel,
) -> None:
    bad = json.dumps({"steps": [{"click": ""}]})
    chat_server.add(bad, bad, bad, bad)
    runner = ScriptedRunner()
    async with Tasks(runner, planner=ModelPlanner(model)) as tasks:
        view = await finish(tasks, await tasks.start_task({"task": TASK}))
        with pytest.raises(GoferError) as caught:
            chat_server.add(bad, bad, bad)
            await tasks.plan_task({"task": TASK})
    assert view.status.state == "failed"
    assert not view.status.recoverable
    assert "PLAN_INVALID" in (view.status.hint or "")
    assert caught.value.code == "PLAN_INVALID"
    assert len(chat_server.requests) == 6  # three tries each
    assert runner.requests == []
    assert chat_server.left == 1


async def test_a_secret_used_in_words_is_an_error_the_model_must_fix(
    chat_server: ChatServer,
    model: OpenAIChatModel,
    canary: Callable[[str], str],
) -> None:
    leaky = {
        "steps": [{"browse": "https://air.example.com/"}, {"verify": {"shows": "${card number}"}}]
    }
    chat_server.add(json.dumps(leaky), json.dumps(GOOD))
    async with Tasks(ScriptedRunner(), planner=ModelPlanner(model)) as tasks:
        reply = await tasks.plan_task({"task": TASK, "facts": facts(canary)})
    assert reply.flow["steps"] == GOOD["steps"]
    assert "secret" in chat_server.messages(1)[-1]["content"]


async def test_names_no_fact_supplies_are_asked_before_anything_runs(
    chat_server: ChatServer,
    model: OpenAIChatModel,
) -> None:
    asks = {
        "steps": [
            {"browse": "https://air.example.com/"},
            {"enter": "${passport number}", "into": "Passport"},
            {"enter": "${email}", "into": "Email"},
        ]
    }
    chat_server.add(json.dumps(asks), json.dumps(asks))
    runner = ScriptedRunner()
    async with Tasks(runner, planner=ModelPlanner(model)) as tasks:
        view = await finish(tasks, await tasks.start_task({"task": TASK}))
        dry = await tasks.plan_task({"task": TASK, "facts": {"email": "a@b.c"}})
        assert view.status.state == "needs_input"
        assert view.status.fields == ["passport number", "email"]
        assert runner.requests == []
        assert view.id not in runner.open  # the browser went while the task waits
        view = await tasks.continue_task(
            {"id": view.id, "inputs": {"passport number": "Z123", "email": "a@b.c"}}
        )
        view = await finish(tasks, view)
    assert dry.questions == ["passport number"]
    assert view.status.state == "done"
    assert len(runner.requests) == 1


async def test_the_browser_is_readied_and_the_named_page_loaded_while_planning(
    chat_server: ChatServer,
    model: OpenAIChatModel,
) -> None:
    chat_server.add(json.dumps(GOOD), json.dumps(GOOD))
    runner = ScriptedRunner()
    async with Tasks(runner, planner=ModelPlanner(model)) as tasks:
        named = await finish(
            tasks,
            await tasks.start_task(
                {
                    "task": TASK,
                    "facts": {"email": "a@b.c"},
                    "constraints": {"surfaces": ["browser"]},
                }
            ),
        )
        mentioned = await finish(
            tasks,
            await tasks.start_task(
                {
                    "task": "Check whether https://air.example.com/ is up and fill ${email}",
                    "facts": {"email": "a@b.c"},
                    "constraints": {"surfaces": ["browser"]},
                }
            ),
        )
    assert runner.prepared == [named.id, mentioned.id]
    assert runner.preloaded == [(named.id, "https://air.example.com/")]


async def test_the_planner_counts_into_max_model_calls(
    chat_server: ChatServer,
    model: OpenAIChatModel,
) -> None:
    chat_server.add(json.dumps({"steps": []}), json.dumps(GOOD))
    async with Tasks(ScriptedRunner(), planner=ModelPlanner(model)) as tasks:
        view = await finish(
            tasks, await tasks.start_task({"task": TASK, "budget": {"max_model_calls": 1}})
        )
    assert view.status.state == "failed"
    assert "MODEL_BUDGET_SPENT" in (view.status.hint or "")
    assert len(chat_server.requests) == 1


async def test_a_planner_that_times_out_fails_the_task_with_the_reason(
    chat_server: ChatServer,
) -> None:
    chat_server.add(Reply(text=json.dumps(GOOD), delay_s=1.0))
    async with (
        OpenAIChatModel(
            model="p", base_url=chat_server.base_url, timeout_s=0.2, max_retries=0
        ) as slow,
        Tasks(ScriptedRunner(), planner=ModelPlanner(slow)) as tasks,
    ):
        view = await finish(tasks, await tasks.start_task({"task": TASK}))
    assert view.status.state == "failed"
    assert "in time" in view.status.reason
