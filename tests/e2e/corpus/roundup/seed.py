"""Seeds a fresh classic Roundup tracker (the directory in argv[1]) through Roundup's
own API: a second user, a keyword and a few issues."""

from __future__ import annotations

import sys

from roundup import instance
from roundup.password import Password

ISSUES = (
    ("Login page is slow", "bug", "chatting"),
    ("Export to CSV drops accents", "feature", "unread"),
    ("Crash when attaching a large file", "bug", "unread"),
    ("Dark theme for the issue list", "wish", "deferred"),
)

db = instance.open(sys.argv[1]).open("admin")
try:
    db.user.create(
        username="asha",
        password=Password("Asha-pass-456", config=db.config),
        roles="User",
        realname="Asha Rao",
        address="asha@example.org",
    )
    db.keyword.create(name="uploads")
    db.keyword.create(name="performance")
    for title, priority, status in ISSUES:
        db.issue.create(
            title=title, priority=db.priority.lookup(priority), status=db.status.lookup(status)
        )
    db.commit()
finally:
    db.close()
