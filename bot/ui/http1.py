"""One kept-alive HTTP/1.1 connection of the bot's own sender (:mod:`bot.ui.wire`): a request
written whole, its answer parsed by llhttp (``httptools``) into an :class:`Answer` that
discord.py's rate-limit code reads as a response; the query strings and log lines of its requests."""

from __future__ import annotations

import asyncio
import re
import ssl
from typing import Any
from urllib.parse import urlencode

import aiohttp
import httptools
from discord import utils

ANSWER_TIMEOUT = 300.0  # aiohttp's default total timeout, which discord.py's session keeps
_QUERIES: dict[tuple[Any, ...], str] = {}  # a few query strings (``with_response=1``, ``wait=0&…``), each encoded once


def tls_context() -> ssl.SSLContext:
    """The system's authorities and Python's defaults (as aiohttp's own verified context), HTTP/1.1
    asked for by ALPN."""
    context = ssl.create_default_context()
    context.set_alpn_protocols(["http/1.1"])
    return context


def query_string(params: dict[str, Any]) -> str:
    """A query string as aiohttp encodes ``params`` (a few distinct ones, each encoded once)."""
    key = tuple(params.items())
    try:
        return _QUERIES[key]
    except KeyError:
        query = urlencode(params)
        if len(_QUERIES) < 64:
            _QUERIES[key] = query
        return query
    except TypeError:  # a value that cannot be a key
        return urlencode(params)


class Headers(dict):
    """An answer's headers, their names lower-cased; looked up in any case (as discord.py reads them)."""

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        return dict.get(self, key.lower(), default)

    def __getitem__(self, key: str) -> str:
        return dict.__getitem__(self, key.lower())

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key.lower() if isinstance(key, str) else key)


_TOKENED = re.compile(r"(/(?:interactions|webhooks)/[^/?]+/)[^/?]+")


def shown_url(url: str) -> str:
    """A request's URL as a log line may show it: an interaction's or a webhook's token (which
    lets its holder answer as the bot) left out, as discord.py's webhook adapter never logs it."""
    return _TOKENED.sub(r"\1…", url)


class Answer:
    """One HTTP answer: status, headers, body; read by discord.py's ``Ratelimit.update`` as a response."""

    __slots__ = ("status", "reason", "headers", "body", "method", "url")

    def __init__(self, status: int, reason: str, headers: Headers, body: bytes):
        self.status, self.reason, self.headers, self.body = status, reason, headers, body
        self.method = self.url = ""

    def data(self) -> Any:
        """As discord.py's ``json_or_text``: JSON when the answer says it is, else the text."""
        if self.headers.get("content-type") == "application/json":
            return utils._from_json(self.body)
        return self.body.decode("utf-8")


class Connection(asyncio.Protocol):
    """One kept-alive connection: one request at a time, its answer parsed by llhttp."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpResponseParser(self)
        self.waiter: asyncio.Future[Answer] | None = None
        self.lost: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.got = 0  # bytes of the current answer received
        self.used = 0  # requests sent on it
        self.idle_since = 0.0
        self.keep = False
        self._reason = ""
        self._headers = Headers()
        self._body: list[bytes] = []

    # --- the transport's side
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        if self.waiter is None or self.waiter.done():  # nothing asked: not an answer of ours
            self.close()
            return
        self.got += len(data)
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as e:
            self._fail(ConnectionError(f"an answer that is not HTTP: {e}"))
            self.close()

    def eof_received(self) -> bool:
        return False  # closed at once (TLS too)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.lost.done():
            self.lost.set_result(None)
        if self.waiter is not None and not self.waiter.done():
            self._fail(Silent() if self.got == 0 else aiohttp.ServerDisconnectedError())

    # --- llhttp's callbacks
    def on_message_begin(self) -> None:
        self._reason, self._headers, self._body = "", Headers(), []

    def on_status(self, status: bytes) -> None:
        self._reason += status.decode("latin-1")

    def on_header(self, name: bytes, value: bytes) -> None:
        self._headers[name.decode("latin-1").lower()] = value.decode("latin-1")

    def on_body(self, body: bytes) -> None:
        self._body.append(body)

    def on_message_complete(self) -> None:
        self.keep = self.parser.should_keep_alive()
        answer = Answer(self.parser.get_status_code(), self._reason, self._headers, b"".join(self._body))
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(answer)

    # --- the sender's side
    @property
    def open(self) -> bool:
        return self.transport is not None and not self.transport.is_closing() and not self.lost.done()

    async def exchange(self, request: bytes) -> Answer:
        assert self.transport is not None
        loop = asyncio.get_running_loop()
        self.waiter, self.got, self.keep = loop.create_future(), 0, False
        self.used += 1
        self.transport.write(request)
        late = loop.call_later(ANSWER_TIMEOUT, self._late)  # a timer, cheaper than asyncio.timeout's scope
        try:
            return await self.waiter
        finally:
            late.cancel()
            self.waiter = None

    def _late(self) -> None:
        self._fail(TimeoutError(f"no answer in {ANSWER_TIMEOUT:.0f} s"))

    def _fail(self, exc: BaseException) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(exc)

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()


class Silent(ConnectionError):
    """The connection closed with not a byte of answer."""
