"""Typed rule refusals. The message is an English msgid (translated by the web
layer); `rule` names the docs/rules.md section the refusal enforces."""

from __future__ import annotations


class RuleViolation(Exception):
    def __init__(self, message: str, rule: str | None = None, **params: object) -> None:
        super().__init__(message % params if params else message)
        self.message = message
        self.rule = rule
        self.params = params


class NotAllowed(RuleViolation):
    """The actor may not do this now (wrong seat, wrong phase, locked...)."""


class UnknownElement(RuleViolation):
    """An id the actor cannot see. Deliberately the same refusal whether the
    element does not exist or is hidden from the actor, so a refusal never
    confirms that a hidden trooper exists."""


class InvalidInput(RuleViolation):
    """Malformed command data."""
