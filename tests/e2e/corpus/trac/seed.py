"""What the corpus's Trac holds before the tasks: a few tickets in several components.
Run inside Trac's own virtual environment with the environment's path (``conftest.py``)."""

import sys

from trac.env import Environment
from trac.ticket.model import Ticket

env = Environment(sys.argv[1])
TICKETS = [
    ("Crash when saving an empty draft", "defect", "component1", "major", "mira", "new"),
    ("Add dark mode to the editor", "enhancement", "component2", "minor", "otto", "new"),
    ("Export fails for large reports", "defect", "component1", "critical", "otto", "assigned"),
    ("Typo on the welcome page", "defect", "component2", "trivial", "mira", "new"),
]
for summary, kind, component, priority, owner, status in TICKETS:
    ticket = Ticket(env)
    ticket.populate(
        {
            "summary": summary,
            "description": f"{summary}.",
            "type": kind,
            "component": component,
            "priority": priority,
            "owner": owner,
            "status": status,
            "reporter": "asha",
            "milestone": "milestone1",
            "version": "",
            "keywords": "",
        }
    )
    ticket.insert()
