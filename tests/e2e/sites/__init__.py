"""Realistic hand-written sites in the styles of real ones, for the general e2e tests.

Each module builds one small site (a shop, a government form, a web app, a hotel
search, a news page) as a :class:`~tests.e2e.sites.base.Site`: pages by path,
with every form post and every ``fetch`` the pages send recorded as a submission.
"""
