"""``gofer --help`` and each command's help are written for the people who type them:
what the command does, and every option explained."""

from __future__ import annotations

import argparse

from gofer.cli import _parser


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    found: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found[name] = sub
                found |= {f"{name} {inner}": cmd for inner, cmd in _commands(sub).items()}
    return found


def test_the_help_says_what_gofer_does_and_names_every_variable() -> None:
    text = _parser().format_help()
    assert "entry point" not in text and "explicit objects" not in text
    assert "stops" in text and "gofer describe" in text
    for variable in ("GOFER_DB", "GOFER_TOKENS", "GOFER_TOKEN", "GOFER_MODEL_BASE_URL"):
        assert variable in text


def test_every_command_and_option_is_explained() -> None:
    commands = _commands(_parser())
    assert {"serve", "describe", "demo-site", "token create", "run"} <= set(commands)
    unexplained = [
        f"{name} {action.option_strings or action.dest}"
        for name, command in commands.items()
        for action in command._actions
        if action.dest != "help"
        and not isinstance(action, argparse._SubParsersAction)
        and not action.help
    ]
    assert unexplained == []
