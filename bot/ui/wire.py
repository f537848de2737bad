"""A lean sender for a press's hot JSON requests, on kept-alive HTTP/1.1 connections of its own.

A press answers its interaction (``POST /interactions/{id}/{token}/callback``), often edits the
table message (``PATCH /channels/{c}/messages/{m}``) and sometimes follows up (``POST
/webhooks/{app}/{token}``). Through discord.py each of these costs the event loop 120-170 µs of CPU
in aiohttp and discord.py's request wrappers; written on a plain asyncio protocol and parsed by
llhttp (``httptools``) about 40 µs (loopback, uvloop).

Where the requests meet it: the interaction's answers (bot.ui.answers) and follow-ups go through
:class:`WireAdapter`, discord.py's own webhook adapter but for the sending (the bot serves it as
discord.py's ``async_context``); the table's edit through ``HTTPClient.request``, wrapped on the
bot's client for :data:`HOT_ROUTES` only (so ``http.edit_message`` is still what is called).

The request is the one discord.py would send: the same method, path and query, the same body
bytes (discord.py's own JSON encoding of the same payload), the same Authorization, User-Agent,
Content-Type and X-Audit-Log-Reason headers, to wherever ``discord.http.Route.BASE`` points (TLS
with ``ssl.create_default_context()`` for ``https``). It does not ask for a compressed answer.

Only a plain success is taken from this road; a refusal is met as discord.py meets it. Where
discord.py would raise on the answer (a 4xx, a 429 without Cloudflare's ``Via`` or past
``max_ratelimit_timeout``, a 5xx it does not retry) the same exception is raised from this answer
(``discord.Forbidden``, ``NotFound``, ``HTTPException``, ``RateLimited``, ``DiscordServerError``: the
request is not sent twice). Where discord.py would send it again (a 429, a 500, 502, 504 or 524),
it waits what discord.py waits first (the 429's ``retry_after``, a global one holding the client's
other requests meanwhile; a second after a 5xx) and the request goes through discord.py's own road,
which retries and raises as it always did. discord.py's road also takes a request that could not be
written (no connection, the pool full, a kept-alive connection found closed), a client with a proxy
or without a token, a body with files, and everything once the sender is closed. A kept-alive
connection that closes without a byte of answer after the request was written (the server closing
it as it went idle) sends the request again through discord.py only when doing it twice is harmless
(``replayable``: an interaction's callback, which Discord refuses twice, or an edit); otherwise the
error is raised, as aiohttp raises it.

Rate limits stay discord.py's: an interaction-token request holds discord.py's webhook lock for its
interaction (and is held back as discord.py would when ``X-RateLimit-Remaining`` is 0); a
bot-token request (the table edit) takes its token from the very ``Ratelimit`` bucket discord.py's
``HTTPClient.request`` would (``HTTPClient._buckets``, the bucket hashes Discord sends, the global
limit) and updates it from the answer's ``X-RateLimit-*`` headers as discord.py does.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import ssl
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import quote as _uriquote, urlsplit

import aiohttp
import discord
from discord import utils
from discord.webhook.async_ import AsyncDeferredLock, AsyncWebhookAdapter, async_context

from bot.ui.http1 import Answer, Connection, query_string, Silent, shown_url, tls_context
from bot.ui.turnstile import aside

log = logging.getLogger(__name__)

LIMIT = 16  # connections open at once; past it a request goes through discord.py
IDLE = 15.0  # seconds a kept-alive connection may idle before it is closed (aiohttp's own keep-alive)
CONNECT_TIMEOUT = 10.0
RETRIED_5XX = frozenset((500, 502, 504, 524))  # discord.py's HTTPClient retries these after a second

Fallback = Callable[[], Awaitable[Any]]

# Set (``unread()``) while a request is made whose answer nobody reads: its body is not parsed.
_UNREAD: contextvars.ContextVar[bool] = contextvars.ContextVar("deckhand_wire_unread", default=False)


class unread:
    """``with unread(): await ...``: the requests this sender answers meanwhile (in this task) give
    None instead of their answer's data, which the caller never reads (the table message Discord
    sends back after an edit, the interaction's message after its answer): its JSON is not parsed.
    What is sent, the rate limits, the refusals (raised from their answer, as ever) and
    discord.py's road (which parses as it always did) are unchanged."""

    __slots__ = ("_token",)

    def __enter__(self) -> None:
        self._token = _UNREAD.set(True)

    def __exit__(self, *exc: object) -> None:
        _UNREAD.reset(self._token)


class Wire:
    """The bot's lean sender (one per bot, closed with it)."""

    def __init__(self, http: discord.http.HTTPClient, *, limit: int = LIMIT, ssl_context: ssl.SSLContext | None = None):
        self.http = http
        self.limit = limit
        self._ssl = ssl_context
        self._idle: dict[tuple[str, str, int], list[Connection]] = {}
        self._all: set[Connection] = set()
        self._origins: dict[str, tuple[str, str, int, str, str]] = {}
        self._heads: dict[tuple[str, str], str] = {}  # (host, user agent): the request's first header lines
        self._closed = False
        self.sent = 0  # requests answered on this road
        self.fell_back = 0  # requests sent through discord.py instead
        if self._ssl is None and discord.http.Route.BASE.startswith("https:"):
            self._ssl = tls_context()  # made now (it reads the system's authorities), not on the first press
        self.adapter = WireAdapter(self)  # the interactions' answers (bot.ui.answers)
        take_hot_requests(self)

    def serve_webhooks(self) -> None:
        """Interaction follow-ups and edits of an interaction's messages (``interaction.followup``,
        ``edit_original_response``: discord.py's webhook adapter, read from its ``async_context``)
        take the sender too, from the tasks started in this context on (the bot's: its gateway's
        dispatch tasks are started from the task that made it). Requests of another client in the
        same context go through this sender alike: they carry their own token in the route (or
        their own ``auth_token``), and the adapter is discord.py's own in all but the sending."""
        async_context.set(self.adapter)

    @property
    def usable(self) -> bool:
        """Whether requests can take this road: a logged-in client with no proxy and no aiohttp
        tracing of its requests, and not closed."""
        http = self.http
        return (not self._closed and http.token is not None and http.proxy is None and http.proxy_auth is None
                and http.http_trace is None)

    # --- the two roads

    async def interaction(self, route: discord.http.Route, payload: Any, fallback: Fallback, *,
                          params: dict[str, Any] | None = None, reason: str | None = None,
                          auth_token: str | None = None, replayable: bool = False) -> Any:
        """A request on an interaction's token (``AsyncWebhookAdapter.request`` with a JSON payload),
        under discord.py's lock of its webhook: its answer's data when 2xx, else discord.py's road's
        (``fallback``)."""
        if not self.usable:
            return await self._fall_back(fallback)
        headers = {"Content-Type": "application/json"}
        if auth_token is not None:
            headers["Authorization"] = f"Bot {auth_token}"
        if reason is not None:
            headers["X-Audit-Log-Reason"] = _uriquote(reason, safe="/ ")
        body = json_body(payload)
        locks = self.adapter._locks
        bucket = (route.webhook_id, route.webhook_token)
        lock = locks.get(bucket)
        if lock is None:
            locks[bucket] = lock = asyncio.Lock()
        answer: Answer | None = None
        async with AsyncDeferredLock(lock) as held:
            answer = await self._send(route, params, headers, body, replayable, aiohttp.http.SERVER_SOFTWARE)
            if answer is not None:
                if answer.headers.get("x-ratelimit-remaining") == "0" and answer.status != 429:
                    held.delay_by(utils._parse_ratelimit_header(answer))
                if 300 > answer.status >= 200:
                    self.sent += 1
                    return None if _UNREAD.get() else answer.data()
                await self._refused(answer, None)
        return await self._fall_back(fallback)

    async def bot(self, route: discord.http.Route, payload: Any, fallback: Fallback, *,
                  reason: str | None = None, replayable: bool = False) -> Any:
        """A request on the bot's token with a JSON payload (``HTTPClient.request(route, json=...)``),
        through discord.py's own rate-limit bucket of the route: its answer's data when 2xx, else
        discord.py's road's (``fallback``)."""
        http: Any = self.http
        if not self.usable:
            return await self._fall_back(fallback)
        headers = {"Content-Type": "application/json", "Authorization": "Bot " + http.token}
        if reason:
            headers["X-Audit-Log-Reason"] = _uriquote(reason, safe="/ ")
        body = json_body(payload)
        route_key = route.key
        bucket_hash = http._bucket_hashes.get(route_key)
        key = f"{route_key}:{route.major_parameters}" if bucket_hash is None else f"{bucket_hash}:{route.major_parameters}"
        ratelimit = http.get_ratelimit(key)
        if not http._global_over.is_set():
            await http._global_over.wait()
        answer: Answer | None = None
        async with ratelimit:
            answer = await self._send(route, None, headers, body, replayable, http.user_agent)
            if answer is not None:
                _note_limits(http, route, route_key, bucket_hash, key, ratelimit, answer)
                if 300 > answer.status >= 200:
                    self.sent += 1
                    return None if _UNREAD.get() else answer.data()
                await self._refused(answer, http)
        return await self._fall_back(fallback)

    async def _fall_back(self, fallback: Fallback) -> Any:
        self.fell_back += 1
        return await fallback()

    async def _refused(self, answer: Answer, http: Any) -> None:
        """A refusal, as discord.py meets it (``HTTPClient.request`` when ``http`` is given, else
        ``AsyncWebhookAdapter.request``): the same exception raised when discord.py would raise it
        (from this answer: the request is not sent twice); else, when discord.py would send it again,
        what it waits first (a 429's ``retry_after``, a global one holding every request of the
        client meanwhile; a second after a 5xx), and the caller sends it through discord.py's road."""
        status = answer.status
        try:
            data = answer.data()
        except ValueError:
            data = answer.body.decode("utf-8", "replace")
        if status == 429:
            if not answer.headers.get("via") or not isinstance(data, dict):
                raise discord.HTTPException(answer, data)  # type: ignore[arg-type]
            retry_after = float(data["retry_after"])
            limit = http.max_ratelimit_timeout if http is not None else None
            if limit and retry_after > limit:
                raise discord.RateLimited(retry_after)
            log.warning("We are being rate limited. %s %s responded with 429. Retrying in %.2f seconds.",
                        answer.method, shown_url(answer.url), retry_after)
            is_global = http is not None and bool(data.get("global", False))
            if is_global:
                http._global_over.clear()
            try:
                await asyncio.sleep(retry_after)
            finally:
                if is_global:
                    http._global_over.set()
            return
        if status in RETRIED_5XX if http is not None else status >= 500:
            await asyncio.sleep(1)
            return
        if status == 403:
            raise discord.Forbidden(answer, data)  # type: ignore[arg-type]
        if status == 404:
            raise discord.NotFound(answer, data)  # type: ignore[arg-type]
        if status >= 500:
            raise discord.DiscordServerError(answer, data)  # type: ignore[arg-type]
        raise discord.HTTPException(answer, data)  # type: ignore[arg-type]

    async def _send(self, route: discord.http.Route, params: dict[str, Any] | None, headers: dict[str, str],
                    body: bytes | None, replayable: bool, user_agent: str) -> Answer | None:
        """The answer, or None when the request was not sent (or harmless to send again)."""
        try:
            scheme, host, port, hostport, prefix = self._origin()
        except ValueError:
            return None
        url = route.url
        if not url.startswith(prefix):
            return None
        path = url[len(prefix):] or "/"
        if params:
            path += "?" + query_string(params)
        head = self._heads.get((hostport, user_agent))
        if head is None:
            head = self._heads[(hostport, user_agent)] = f"Host: {hostport}\r\nAccept: */*\r\nUser-Agent: {user_agent}\r\n"
        fields = "".join([f"{k}: {v}\r\n" for k, v in headers.items()])
        try:
            request = (f"{route.method} {path} HTTP/1.1\r\n{head}{fields}"
                       f"Content-Length: {len(body) if body is not None else 0}\r\n\r\n").encode("ascii") + (body or b"")
        except UnicodeEncodeError:  # a path or header aiohttp would encode its own way: its road
            return None
        origin = (scheme, host, port)
        conn = self._take(origin)
        if conn is None:
            conn = await self._connect(origin)
            if conn is None:
                return None
        try:
            answer = await conn.exchange(request)
            answer.method, answer.url = route.method, url
        except Silent:  # closed as it went idle, most likely before the request was read
            conn.close()
            if replayable:
                return None
            raise aiohttp.ServerDisconnectedError() from None
        except BaseException:
            conn.close()
            raise
        self._give_back(origin, conn)
        return answer

    def _origin(self) -> tuple[str, str, int, str, str]:
        base = discord.http.Route.BASE
        known = self._origins.get(base)
        if known is None:
            parts = urlsplit(base)
            scheme = parts.scheme.lower()
            if scheme not in ("http", "https") or not parts.hostname:
                raise ValueError(base)
            default = 443 if scheme == "https" else 80
            port = parts.port or default
            name = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname  # an IPv6 literal
            hostport = name if port == default else f"{name}:{port}"
            prefix = f"{parts.scheme}://{parts.netloc}"
            self._origins[base] = known = (scheme, parts.hostname, port, hostport, prefix)
        return known

    # --- the pool

    def _take(self, origin: tuple[str, str, int]) -> Connection | None:
        idle = self._idle.get(origin)
        now = time.monotonic()
        while idle:
            conn = idle.pop()
            if conn.open and now - conn.idle_since < IDLE:
                return conn
            conn.close()
        return None

    def _give_back(self, origin: tuple[str, str, int], conn: Connection) -> None:
        if self._closed or not conn.keep or not conn.open:
            conn.close()
            return
        conn.idle_since = time.monotonic()
        self._idle.setdefault(origin, []).append(conn)

    async def _connect(self, origin: tuple[str, str, int]) -> Connection | None:
        self._all = {c for c in self._all if not c.lost.done()}
        if len(self._all) >= self.limit:
            return None
        scheme, host, port = origin
        context: ssl.SSLContext | None = None
        if scheme == "https":
            if self._ssl is None:
                self._ssl = tls_context()
            context = self._ssl
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(CONNECT_TIMEOUT):
                _, conn = await loop.create_connection(Connection, host, port, ssl=context,
                                                       server_hostname=host if context is not None else None)
        except (OSError, ssl.SSLError, TimeoutError) as e:
            log.debug("could not connect to %s:%s (%s): discord.py sends it", host, port, e)
            return None
        if self._closed:
            conn.close()
            return None
        self._all.add(conn)
        return conn

    async def close(self) -> None:
        """Close every connection (a request still under way closes its own when answered) and
        wait until they are gone; later requests go through discord.py."""
        self._closed = True
        for idle in self._idle.values():
            for conn in idle:
                conn.close()
        self._idle.clear()
        waiting = [c.lost for c in self._all if not c.lost.done()]
        for conn in self._all:
            if conn.waiter is None:
                conn.close()
        if waiting:
            await asyncio.wait(waiting, timeout=5.0)
        self._all = {c for c in self._all if not c.lost.done()}

    @property
    def connections(self) -> int:
        """Connections still open."""
        return sum(1 for c in self._all if not c.lost.done())


def _note_limits(http: Any, route: discord.http.Route, route_key: str, bucket_hash: str | None, key: str,
                 ratelimit: Any, answer: Answer) -> None:
    """discord.py's ``HTTPClient.request`` on an answer's rate-limit headers (2.7.1): the route's
    bucket hash learnt or changed, the bucket updated (except from a 429)."""
    headers = answer.headers
    discord_hash = headers.get("x-ratelimit-bucket")
    if discord_hash is not None and bucket_hash != discord_hash:
        if bucket_hash is not None:
            http._bucket_hashes[route_key] = discord_hash
            http._buckets[f"{discord_hash}:{route.major_parameters}"] = ratelimit
            http._buckets.pop(key, None)
        elif route_key not in http._bucket_hashes:
            http._bucket_hashes[route_key] = discord_hash
            http._buckets[f"{discord_hash}:{route.major_parameters}"] = ratelimit
    if "x-ratelimit-remaining" in headers and answer.status != 429:
        ratelimit.update(answer, use_clock=http.use_clock)



def json_body(payload: Any) -> bytes:
    """A JSON body's bytes as discord.py encodes it (``utils._to_json``, sent as UTF-8): orjson's
    bytes as they come when discord.py encodes with orjson (it decodes them to text, aiohttp
    encodes that text back to the same bytes), else its text encoded."""
    if _ORJSON_TO_JSON is not None and utils._to_json is _ORJSON_TO_JSON:
        return _orjson_dumps(payload)
    return utils._to_json(payload).encode("utf-8")


try:
    from orjson import dumps as _orjson_dumps
except ImportError:  # discord.py encodes with the json module
    _ORJSON_TO_JSON = None
else:
    _ORJSON_TO_JSON = utils._to_json if utils.HAS_ORJSON else None


# --- where the press path's requests meet the sender

# The bot-token routes taken (``Route.key``); any other request of the client is discord.py's.
HOT_ROUTES = frozenset({"PATCH /channels/{channel_id}/messages/{message_id}"})  # the table message's edit


class WireAdapter(AsyncWebhookAdapter):
    """discord.py's webhook adapter (the same routes, the same payloads, the same per-interaction
    locks as the default adapter's), whose JSON requests go out on the sender."""

    def __init__(self, wire: Wire):
        super().__init__()
        self._locks = async_context.get()._locks  # shared with discord.py's own adapter (the followups')
        self.wire = wire

    async def request(self, route: discord.http.Route, session: Any, *, payload: dict[str, Any] | None = None,
                      multipart: list[dict[str, Any]] | None = None, proxy: str | None = None,
                      proxy_auth: Any = None, files: Any = None, reason: str | None = None,
                      auth_token: str | None = None, params: dict[str, Any] | None = None) -> Any:
        def through_discord() -> Awaitable[Any]:
            return super(WireAdapter, self).request(route, session, payload=payload, multipart=multipart, proxy=proxy,
                                                    proxy_auth=proxy_auth, files=files, reason=reason,
                                                    auth_token=auth_token, params=params)

        async with aside():  # waiting on Discord is no work: the interaction's place goes to another meanwhile
            if (payload is None or multipart or files or proxy is not None or proxy_auth is not None
                    or not self.wire.usable):
                return await through_discord()
            # Twice is harmless for an interaction's callback (Discord refuses a second one) and an edit.
            replayable = route.method == "PATCH" or route.path.endswith("/callback")
            return await self.wire.interaction(route, payload, through_discord, params=params, reason=reason,
                                               auth_token=auth_token, replayable=replayable)


def take_hot_requests(wire: Wire) -> None:
    """The client's hot bot-token requests (:data:`HOT_ROUTES` with a JSON body) go out on the
    sender: ``HTTPClient.request`` is wrapped on the client itself (as ``http.edit_message`` calls it)."""
    http: Any = wire.http
    original = http.request

    async def request(route: discord.http.Route, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        async with aside():  # waiting on Discord is no work: the interaction's place goes to another meanwhile
            if (files or form or route.key not in HOT_ROUTES or "json" not in kwargs
                    or not kwargs.keys() <= {"json", "reason"} or not wire.usable):
                return await original(route, files=files, form=form, **kwargs)
            return await wire.bot(route, kwargs["json"], lambda: original(route, **kwargs),
                                  reason=kwargs.get("reason"), replayable=route.method == "PATCH")  # twice is one edit

    http.request = request


def adapter_of(client: Any) -> AsyncWebhookAdapter:
    """The webhook adapter for a client's interaction answers: its sender's, else discord.py's own."""
    wire = getattr(client, "wire", None)
    return wire.adapter if isinstance(wire, Wire) else async_context.get()
