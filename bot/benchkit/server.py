"""The bench's Discord stand-in: REST only, on loopback, in its own process.

It answers the routes a table press uses (interaction callbacks, webhook follow-ups and edits,
channel messages, login) with the JSON Discord would send, keeps each message's last payload (so
the bench can press the buttons the bot really posted), and logs when every request arrived
(``time.monotonic()``: one clock for every process of the machine) so the bench can time a
click to the table's edit without its own work in the bot's process. Run it with
``python -m bot.benchkit.server [LATENCY_MS]``: it prints its port, then serves until stdin
closes; with a latency, every request but a read is answered that many milliseconds late, as
Discord answers from across the network.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
import time
from typing import Any

from aiohttp import web

APP_ID = 900_000_000_000_000_001
BOT_USER = {"id": str(APP_ID), "username": "Deckhand", "global_name": None, "discriminator": "0", "avatar": None,
            "bot": True, "verified": True, "mfa_enabled": False, "flags": 0, "public_flags": 0, "email": None}
OWNER = {"id": "900000000000000002", "username": "owner", "global_name": "Owner", "discriminator": "0",
         "avatar": None, "bot": False, "public_flags": 0}
EPHEMERAL = 64


def _json(data: Any, status: int = 200) -> web.Response:
    """JSON as Discord sends it (discord.py reads a body as JSON only for exactly this type)."""
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


class Server:
    def __init__(self, latency: float = 0.0) -> None:
        self.latency = latency  # seconds before each answer to the bot's writes (Discord's round trip)
        self.messages: dict[int, dict[str, Any]] = {}
        self.original: dict[str, int] = {}  # interaction token -> its response message
        self.log: list[list[Any]] = []  # [arrived (monotonic), method, route kind, token or message id, has embeds, bytes]
        self.ids = itertools.count(1_100_000_000_000_000_000)
        self.unhandled: list[str] = []

    # ----- messages ------------------------------------------------------------------
    def _new(self, channel_id: str, body: dict[str, Any], interaction: bool = False) -> dict[str, Any]:
        mid = next(self.ids)
        msg = {"id": str(mid), "channel_id": str(channel_id), "author": BOT_USER, "content": body.get("content") or "",
               "embeds": body.get("embeds") or [], "components": body.get("components") or [],
               "attachments": self._attachments(body), "timestamp": "2026-01-01T00:00:00+00:00",
               "edited_timestamp": None, "type": 0, "flags": int(body.get("flags") or 0), "mentions": [],
               "mention_roles": [], "mention_everyone": False, "pinned": False, "tts": False}
        if interaction:
            msg["webhook_id"] = msg["application_id"] = str(APP_ID)
        self.messages[mid] = msg
        return msg

    @staticmethod
    def _attachments(body: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"id": str(a.get("id", i)), "filename": a.get("filename") or "file", "size": 1,
                 "url": "https://cdn.invalid/x", "proxy_url": "https://cdn.invalid/x"}
                for i, a in enumerate(body.get("attachments") or [])]

    def _edit(self, mid: int, body: dict[str, Any], channel: str | None = None) -> dict[str, Any] | None:
        msg = self.messages.get(mid)
        if msg is None and channel is not None:  # a table message of a table the bench made in the database
            msg = self.messages[mid] = {**self._new(channel, {}), "id": str(mid)}
        if msg is None:
            return None
        for key in ("content", "embeds", "components"):
            if key in body:
                msg[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        if "attachments" in body:
            msg["attachments"] = self._attachments(body)
        msg["edited_timestamp"] = "2026-01-01T00:00:01+00:00"
        return msg

    # ----- requests ------------------------------------------------------------------
    async def _body(self, request: web.Request) -> tuple[dict[str, Any], int]:
        ctype = request.headers.get("Content-Type", "")
        size = 0
        if ctype.startswith("multipart/form-data"):
            body: dict[str, Any] = {}
            reader = await request.multipart()
            async for part in reader:
                data = await part.read()  # type: ignore[union-attr]
                size += len(data)
                if part.name == "payload_json":  # type: ignore[union-attr]
                    body = json.loads(data)
            return body, size
        raw = await request.read()
        return (json.loads(raw) if raw else {}), len(raw)

    def _note(self, arrived: float, method: str, kind: str, ref: str, body: dict[str, Any], size: int) -> None:
        data = body.get("data") if kind == "callback" else body
        embeds = bool((data or {}).get("embeds")) if isinstance(data, dict) else False
        self.log.append([arrived, method, kind, ref, embeds, size, body.get("type") if kind == "callback" else None])

    async def handle(self, request: web.Request) -> web.StreamResponse:
        arrived = time.monotonic()
        path = request.path.removeprefix("/api/v10")
        parts = path.strip("/").split("/")
        method = request.method
        if parts[0] == "bench":
            return self._bench(request, parts)
        if self.latency and method != "GET":
            await asyncio.sleep(self.latency)
        body, size = await self._body(request)
        try:
            return self._route(arrived, method, parts, body, size)
        except (KeyError, IndexError, ValueError) as e:
            self.unhandled.append(f"{method} {path}: {e!r}")
            return _json({"code": 0, "message": f"stand-in: {e!r}"}, status=404)

    def _route(self, arrived: float, method: str, parts: list[str], body: dict[str, Any], size: int) -> web.Response:
        ok = _json
        if parts == ["users", "@me"]:
            return ok(BOT_USER)
        if parts[-2:] == ["applications", "@me"]:
            return ok({"id": str(APP_ID), "name": "Deckhand", "icon": None, "description": "", "summary": "",
                       "type": None, "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False,
                       "verify_key": "0" * 64, "flags": 0, "owner": OWNER, "team": None, "bot": BOT_USER,
                       "tags": [], "redirect_uris": [], "interactions_endpoint_url": None,
                       "integration_types_config": {"0": {}, "1": {}}, "approximate_guild_count": 1})
        if parts[0] == "interactions" and parts[3] == "callback" and method == "POST":
            iid, token = parts[1], parts[2]
            self._note(arrived, method, "callback", token, body, size)
            return self._callback(iid, token, body)
        if parts[0] == "webhooks":
            token = parts[2]
            if len(parts) == 3 and method == "POST":  # a follow-up
                self._note(arrived, method, "followup", token, body, size)
                msg = self._new(token.split(".")[1], body, interaction=True)
                return ok(msg)
            target = parts[4]
            mid = self.original[token] if target == "@original" else int(target)
            self._note(arrived, method, "webhook-edit", str(mid), body, size)
            if method == "PATCH":
                found = self._edit(mid, body)
            elif method == "GET":
                found = self.messages.get(mid)
            else:
                self.messages.pop(mid, None)
                return web.Response(status=204)
            if found is None:
                return ok({"code": 10008, "message": "Unknown Message"}, status=404)
            return ok(found)
        if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
            channel = parts[1]
            if len(parts) == 3 and method == "POST":
                self._note(arrived, method, "channel-send", channel, body, size)
                return ok(self._new(channel, body))
            mid = int(parts[3])
            self._note(arrived, method, "channel-edit", str(mid), body, size)
            if method == "PATCH":
                found = self._edit(mid, body, channel)
                if found is None:
                    return ok({"code": 10008, "message": "Unknown Message"}, status=404)
                return ok(found)
            if method == "GET" and mid in self.messages:
                return ok(self.messages[mid])
        raise KeyError(f"no route for {method} /{'/'.join(parts)}")

    def _callback(self, iid: str, token: str, body: dict[str, Any]) -> web.Response:
        ctype = body.get("type")
        data = body.get("data") or {}
        _, channel, source = token.split(".")[:3]
        message = None
        if ctype in (4, 5):
            message = self._new(channel, data if ctype == 4 else {"flags": int(data.get("flags") or 0)}, True)
            self.original[token] = int(message["id"])
        elif ctype in (6, 7):
            self.original[token] = int(source)
            if ctype == 7:
                message = self._edit(int(source), data)
        out: dict[str, Any] = {"interaction": {"id": iid, "type": 3, "response_message_loading": ctype == 5,
                                               "response_message_ephemeral": bool(message and message["flags"] &
                                                                                  EPHEMERAL)}}
        if message is not None:
            out["interaction"]["response_message_id"] = message["id"]
            out["resource"] = {"type": ctype, "message": message}
        return _json(out)

    def _bench(self, request: web.Request, parts: list[str]) -> web.Response:
        if parts[1] == "message":
            found = self.messages.get(int(parts[2]))
            return _json(found) if found else _json({}, status=404)
        if parts[1] == "original":
            return _json({"id": self.original.get(parts[2])})
        if parts[1] == "log":
            since = int(request.query.get("since", "0"))
            return _json({"log": self.log[since:], "next": len(self.log), "unhandled": self.unhandled})
        if parts[1] == "forget":  # drop the messages the bench will not press again
            keep = {int(x) for x in request.query.get("keep", "").split(",") if x}
            self.messages = {k: v for k, v in self.messages.items() if k in keep}
            self.log.clear()
            self.original.clear()
            return _json({})
        raise KeyError("bench route")


async def main() -> None:
    latency = float(sys.argv[1]) / 1000 if len(sys.argv) > 1 else 0.0  # ms
    server = Server(latency)
    app = web.Application(client_max_size=64 * 1024 * 1024)
    app.router.add_route("*", "/{tail:.*}", server.handle)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]  # type: ignore[index]
    print(port, flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)  # serve until the bench closes our stdin
    await runner.cleanup()


if __name__ == "__main__":
    from bot.loop import fast_event_loop

    fast_event_loop()
    asyncio.run(main())
