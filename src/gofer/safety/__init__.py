"""gofer.safety: what a control's words and a screen's text mean for safety.

Pure rules, no I/O: :func:`consequence` (payment, irreversible or reversible),
:func:`screen_payment_evidence` (is this screen a card form?) and
:func:`human_wall` (is a person needed to get past this screen?).
"""

from __future__ import annotations

from gofer.safety.consequence import Consequence, consequence
from gofer.safety.evidence import screen_payment_evidence
from gofer.safety.walls import human_wall

__all__ = ["Consequence", "consequence", "human_wall", "screen_payment_evidence"]
