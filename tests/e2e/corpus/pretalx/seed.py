"""Seed a migrated pretalx database for the corpus: an administrator, an organiser with
its team, and one event whose call for participation is open.

Run with pretalx's venv Python and ``PRETALX_CONFIG_FILE`` set:
``python seed.py``. Nothing here is gofer's; it only prepares the application's state.
"""

from __future__ import annotations

import datetime as dt
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pretalx.settings")

ADMIN_EMAIL = "orga@example.org"
ADMIN_PASSWORD = "corpus-orga-pass"


def main() -> None:
    import django

    django.setup()

    from django.utils.timezone import now
    from django_scopes import scope, scopes_disabled
    from pretalx.event.models import Event
    from pretalx.event.utils import create_organiser_with_team
    from pretalx.person.models import User
    from pretalx.submission.models import SubmissionType, Track

    with scopes_disabled():
        if Event.objects.filter(slug="corpuscon").exists():
            return
        admin = User.objects.create_superuser(ADMIN_PASSWORD, email=ADMIN_EMAIL, name="Orga Person")
        organiser, team = create_organiser_with_team(
            name="Corpus Org", slug="corpusorg", users=[admin]
        )
        start = now() + dt.timedelta(days=60)
        event = Event.objects.create(
            name="CorpusCon",
            slug="corpuscon",
            organiser=organiser,
            is_public=True,
            date_from=start.date(),
            date_to=start.date() + dt.timedelta(days=2),
            timezone="UTC",
            email="orga@example.org",
            locale_array="en",
            locale="en",
            landing_page_text="# Welcome to CorpusCon",
        )
    with scope(event=event):
        event.build_initial_data()
        team.limit_events.add(event)
        SubmissionType.objects.create(event=event, name="Workshop", default_duration=90)
        for name in ("Security", "Databases", "Frontend"):
            Track.objects.create(event=event, name=name, color="#336699")
        event.cfp.headline = "CorpusCon submissions are open!"
        event.cfp.text = "Send us your talks."
        event.cfp.deadline = now() + dt.timedelta(days=30)
        event.cfp.save()
        event.feature_flags["use_tracks"] = True
        event.save()


if __name__ == "__main__":
    main()
