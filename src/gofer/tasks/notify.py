"""Webhooks: each state change of a task that needs its caller or ends is POSTed, as
the task's view in JSON, to the ``notify`` address its start gave.

A delivery is a durable work item (kind ``notify``) enqueued in the same transaction
as the event it tells of, in order per task; its id names the state change, so a
receiver that checks it sees each one at most once however often it is retried. A
notifier in each process running tasks claims deliveries, holds their lease while it
tries (waiting longer between tries), and puts one back on the queue when it stops, so
deliveries survive a restart. The notifier is supervised as the worker is: its claim
loop survives the store's errors, and any other error ends it and is handed to
``on_death`` (the worker's :meth:`~gofer.tasks.worker.TaskWorker.fail`: the process
stops, loudly); a delivery that fails with an error nobody expected is logged with
its traceback and put back with that error (retried, then given up), and the other
deliveries go on. A body is signed with the caller's secret:
``Gofer-Signature: t=<unix time>,v1=<hex HMAC-SHA256 over "<t>." + body>``. The body
is the task's view, which never holds a secret value; the signing secret stays in the
store (sealed) and is read back only to sign. An address is refused unless the
operator's rules allow it (loopback and private networks only when allowed), judged
again before each try; the try then connects to the address that was judged (the
name keeps its ``Host`` header, TLS name and certificate check), never to one a second
lookup of the name gives.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import time
import traceback
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import httpx

from gofer.errors import InvalidRequest, LeaseLost, StoreError
from gofer.store import Claim, Connector, QueueConfig, SerialKind, SerialOrder, Transaction
from gofer.store.lease import keep_lease
from gofer.store.ledger import Ledger
from gofer.surfaces.addresses import resolve, top_level_refusal
from gofer.tasks.contract import NotifySpec, StartTaskRequest, TaskView
from gofer.tasks.events import Ended, Event, Start, TaskCancelled
from gofer.tasks.state import is_running

__all__ = [
    "DELIVERY_HEADER",
    "NOTIFY_KIND",
    "NOTIFY_ORDER",
    "SIGNATURE_HEADER",
    "Notifier",
    "check_notify",
    "enqueue_delivery",
    "sign",
]

log = logging.getLogger("gofer.tasks")

NOTIFY_KIND = "notify"
NOTIFY_ATTEMPTS = 4
"""Claims of one delivery before it is given up (each tries TRY_WAITS_S)."""
TRY_WAITS_S = (0.0, 1.0, 4.0, 16.0)
"""The waits before each try within one claim: the backoff."""
TIMEOUT_S = 10.0
LEASE_MS = 60_000
NOTIFY_ORDER = SerialOrder(
    NOTIFY_KIND, {NOTIFY_KIND: SerialKind("task_id", max_attempts=NOTIFY_ATTEMPTS)}
)
SIGNATURE_HEADER = "Gofer-Signature"
DELIVERY_HEADER = "Gofer-Delivery"


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The signature header's value for ``body`` sent at ``timestamp``."""
    mac = hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


@dataclass(frozen=True, slots=True)
class _Pinned:
    """Where a delivery goes: ``url`` with the judged address in place of the name (so
    nothing resolves the name again between the judging and the connection), the
    ``Host`` header the receiver reads, and the ``name`` TLS sends (SNI) and checks
    the receiver's certificate against."""

    url: str
    host: str
    name: str


async def _judged(url: str, allow_private: bool) -> _Pinned | str:
    """Where ``url`` is delivered to, its name resolved and every address judged; why
    it may not be notified (a string) otherwise."""
    why = top_level_refusal(url)
    if why is not None:
        return why
    parts = urlsplit(url.strip())
    try:
        port = parts.port
    except ValueError:
        return "its port is not a port number"
    name = parts.hostname
    assert name is not None
    default = 443 if parts.scheme.lower() == "https" else 80
    found = await resolve(name, port or default, allow_private)
    if found.refusal is not None:
        return found.refusal
    address = found.addresses[0]
    shown = f"[{address}]" if ":" in address else address
    netloc = shown if port is None else f"{shown}:{port}"
    pinned = urlunsplit((parts.scheme, netloc, parts.path, parts.query, ""))
    return _Pinned(pinned, parts.netloc.rsplit("@", 1)[-1], name)


async def check_notify(spec: NotifySpec, allow_private: bool) -> None:
    """Refuse (INVALID_REQUEST) a webhook address the operator's rules do not allow."""
    judged = await _judged(spec.url, allow_private)
    if isinstance(judged, str):
        raise InvalidRequest(
            f"the notify address is refused: {judged}", at="notify.url", url=spec.url[:200]
        )


async def enqueue_delivery(
    db: Connector,
    ledger: Ledger,
    tx: Transaction,
    owner: str,
    task_id: str,
    event: Event,
) -> None:
    """Enqueue, in ``tx``, the delivery ``event`` calls for: when it leaves the task
    needing its caller or ended, and the task's start asked to be notified."""
    if not isinstance(event, Start | Ended | TaskCancelled):
        return
    view = event.view
    if view is None or is_running(view.status):
        return
    record = await ledger.get_task(owner, task_id, tx=tx)
    if record is None or not record.request.get("notify"):
        return
    item = getattr(event, "item", None)
    delivery = f"{task_id}:{event.KIND}:{item or 0}:{view.status.state}"
    await db.queue(_CONFIG).enqueue(
        NOTIFY_KIND,
        {
            "task_id": task_id,
            "owner": owner,
            "delivery": delivery,
            "view": view.model_dump(mode="json"),
        },
        key=f"notify:{delivery}",
        tx=tx,
    )


_CONFIG = QueueConfig(orders=[NOTIFY_ORDER], owner="owner")


class Notifier:
    """Delivers this store's webhooks from this process until stopped."""

    def __init__(
        self,
        db: Connector,
        ledger: Ledger,
        *,
        allow_private: bool,
        clock: Callable[[], float] = time.time,
        transport: httpx.AsyncBaseTransport | None = None,
        on_death: Callable[[BaseException], None] | None = None,
    ) -> None:
        self._db = db
        self._on_death = on_death
        self._queue = db.queue(_CONFIG)
        self._ledger = ledger
        self._allow_private = allow_private
        self._clock = clock
        self._transport = transport
        self._id = f"notifier-{uuid.uuid4().hex[:8]}"
        self._loop: asyncio.Task[None] | None = None
        self._sending: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        """Start delivering (idempotent; needs a running event loop)."""
        if self._loop is None:
            self._loop = asyncio.create_task(self._claim_forever(), name=f"gofer-{self._id}")
            self._loop.add_done_callback(self._loop_ended)

    def _loop_ended(self, loop: asyncio.Task[None]) -> None:
        """The claim loop ended: stopped, or by an error it could not survive, which is
        logged and handed to ``on_death``."""
        if loop.cancelled() or loop.exception() is None:
            return
        error = loop.exception()
        assert error is not None
        log.error(
            "%s: the delivery loop failed with %s; deliveries stop\n%s",
            self._id,
            type(error).__name__,
            "".join(traceback.format_tb(error.__traceback__)),
        )
        if self._on_death is not None:
            self._on_death(error)

    async def stop(self) -> None:
        """Stop: deliveries in flight go back on the queue for the next process."""
        tasks = [t for t in (self._loop, *self._sending) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._loop = None

    async def _claim_forever(self) -> None:
        backoff = 0.0
        with self._queue.subscribe() as subscription:
            while True:
                try:
                    claims = await self._queue.claim_batch(
                        [NOTIFY_KIND], self._id, LEASE_MS, limit=8, serial=NOTIFY_ORDER
                    )
                except StoreError as exc:
                    backoff = min(max(backoff * 2, 0.05), 5.0)
                    log.warning(
                        "%s: cannot claim deliveries (%s: %s)", self._id, exc.code, exc.message
                    )
                    await asyncio.sleep(backoff)
                    continue
                backoff = 0.0
                for claim in claims:
                    sending = asyncio.create_task(
                        self._deliver(claim), name=f"gofer-notify-{claim.id}"
                    )
                    self._sending.add(sending)
                    sending.add_done_callback(self._sending.discard)
                await subscription.wait(5.0)

    async def _deliver(self, claim: Claim) -> None:
        payload = claim.payload
        delivery = str(payload["delivery"])
        try:
            async with keep_lease(self._queue, claim):
                error = await self._tries(claim)
            if error is None:
                await self._queue.finish(claim, {"delivered": True})
                log.info("delivery %s: sent", delivery)
            else:
                log.warning("delivery %s: not delivered (%s)", delivery, error)
                await self._queue.release(claim, error=error)
        except asyncio.CancelledError:
            await asyncio.shield(self._give_back(claim))
            raise
        except (LeaseLost, StoreError) as exc:
            log.warning("delivery %s: %s", delivery, exc.code)
        except Exception as exc:  # noqa: BLE001 -- logged with its traceback, put back with it
            log.error(
                "delivery %s: failed with %s; put back to try again\n%s",
                delivery,
                type(exc).__name__,
                "".join(traceback.format_tb(exc.__traceback__)),
            )
            try:
                await self._queue.release(claim, error=f"internal error ({type(exc).__name__})")
            except (LeaseLost, StoreError) as lost:
                log.warning("delivery %s: not put back (%s)", delivery, lost.code)

    async def _give_back(self, claim: Claim) -> None:
        try:
            await self._queue.release(claim, unstarted=True)
        except (LeaseLost, StoreError) as exc:
            log.info("delivery of item %d not given back (%s)", claim.id, exc.code)

    async def _tries(self, claim: Claim) -> str | None:
        """Try to deliver, waiting TRY_WAITS_S between tries; the last error, or None."""
        payload = claim.payload
        owner, task_id = str(payload["owner"]), str(payload["task_id"])
        record = await self._ledger.get_task(owner, task_id)
        if record is None:
            return None  # the task is gone: nothing to tell
        spec = StartTaskRequest.model_validate(record.request).notify
        if spec is None:
            return None
        view = TaskView.model_validate(payload["view"])
        body = json.dumps(
            {"delivery": payload["delivery"], "task": view.model_dump(mode="json")},
            ensure_ascii=False,
        ).encode()
        error: str | None = None
        async with httpx.AsyncClient(
            timeout=TIMEOUT_S, transport=self._transport, follow_redirects=False
        ) as client:
            for wait_s in TRY_WAITS_S:
                if wait_s:
                    await asyncio.sleep(wait_s)
                target = await _judged(spec.url, self._allow_private)
                if isinstance(target, str):
                    return f"the address is refused: {target}"
                headers = {
                    "Host": target.host,
                    "Content-Type": "application/json",
                    DELIVERY_HEADER: str(payload["delivery"]),
                }
                if spec.secret:
                    headers[SIGNATURE_HEADER] = sign(spec.secret, int(self._clock()), body)
                try:
                    response = await client.post(
                        target.url,
                        content=body,
                        headers=headers,
                        extensions={"sni_hostname": target.name},
                    )
                except httpx.HTTPError as exc:
                    error = f"{type(exc).__name__}"
                    continue
                if 200 <= response.status_code < 300:
                    return None
                error = f"the receiver answered {response.status_code}"
        return error
