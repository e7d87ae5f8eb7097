"""Steps and conditions in plain words, for views, reports and traces."""

from __future__ import annotations

from gofer.flow.steps import (
    AllOf,
    AnyOf,
    Browse,
    Choose,
    Click,
    Condition,
    Do,
    Download,
    Enter,
    If,
    Judged,
    NotShows,
    Open,
    Press,
    Read,
    RepeatUntil,
    SavePdf,
    Shows,
    Step,
    StopBefore,
    Upload,
    VarEmpty,
    VarEquals,
    Verify,
    Wait,
)

__all__ = ["describe_condition", "describe_step"]


def describe_condition(cond: Condition) -> str:
    """A condition in plain words."""
    if isinstance(cond, Judged):
        return cond.text
    if isinstance(cond, Shows):
        return f"the screen shows “{cond.text}”"
    if isinstance(cond, NotShows):
        return f"the screen does not show “{cond.text}”"
    if isinstance(cond, VarEquals):
        return f"{cond.var} is “{cond.value}”"
    if isinstance(cond, VarEmpty):
        return f"{cond.var} is empty" if cond.empty else f"{cond.var} is not empty"
    joiner = " and " if isinstance(cond, AllOf) else " or "
    assert isinstance(cond, AllOf | AnyOf)
    return joiner.join(describe_condition(item) for item in cond.items)


def describe_step(step: Step) -> str:
    """The step's own intent, or plain words for what it does."""
    if step.intent:
        return step.intent
    within = (
        f" within {step.within}"
        if isinstance(step, Click | Enter | Choose | Upload | Download) and step.within
        else ""
    )
    if isinstance(step, Browse):
        return f"load {step.url}"
    if isinstance(step, Open):
        return f"open the {step.app} application"
    if isinstance(step, Click):
        return f"press “{step.target}”{within}"
    if isinstance(step, Enter):
        return f"type {step.value} into “{step.into}”{within}"
    if isinstance(step, Choose):
        return f"choose “{step.option}” in “{step.in_}”{within}"
    if isinstance(step, Press):
        return f"press the {step.key} key"
    if isinstance(step, Verify):
        return f"check that {describe_condition(step.condition)}"
    if isinstance(step, Read):
        source = f" from the file {step.from_}" if step.from_ else ""
        return f"read {step.what}{source} as {step.as_}"
    if isinstance(step, Upload):
        return f"upload {step.files} into “{step.into}”{within}"
    if isinstance(step, Download):
        return f"download “{step.target}”{within} as {step.as_}"
    if isinstance(step, SavePdf):
        return f"save the page as a PDF named {step.as_}"
    if isinstance(step, Wait):
        return f"wait until {describe_condition(step.condition)}"
    if isinstance(step, StopBefore):
        return f"stop before {step.action}"
    if isinstance(step, If):
        return f"if {describe_condition(step.condition)}, do the steps that follow"
    if isinstance(step, RepeatUntil):
        return f"repeat steps until {describe_condition(step.condition)}"
    assert isinstance(step, Do)
    return step.instruction
