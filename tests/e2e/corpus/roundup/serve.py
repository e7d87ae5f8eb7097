"""Serves the Roundup tracker in argv[1] on 127.0.0.1:argv[2] through Roundup's own
WSGI handler (``roundup-server`` will not run as root, as CI does)."""

from __future__ import annotations

import sys
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIServer, make_server

from roundup.cgi.wsgi_handler import RequestDispatcher


class _Threading(ThreadingMixIn, WSGIServer):
    daemon_threads = True


make_server(
    "127.0.0.1", int(sys.argv[2]), RequestDispatcher(sys.argv[1]), server_class=_Threading
).serve_forever()
