"""The stand-in's control API, for a driver in another process than the stand-in (``python -m
bot.standin``: a bench pressing buttons of a bot that runs as ``python -m bot run``). JSON in and
out, under ``/standin/`` beside the REST API; a refusal is a 400 with ``{"error": ...}``.

``GET  /standin/info``                      the URLs, the application id, the connected sessions
``GET  /standin/wait-bots?count=N``         until N gateway sessions are connected
``POST /standin/user``  ``{name}``           a user (its JSON; its ``id`` is what the others take)
``POST /standin/guild`` ``{name, members}`` a guild with its #general and those user ids as members
``POST /standin/channel`` ``{guild_id, name}`` another text channel
``POST /standin/rate-limit`` ``{path, method, times, retry_after, global}`` 429s to come
``POST /standin/slash`` ``{command, options, user_id, guild_id | channel_id}`` (the synced command)
``POST /standin/click`` ``{message_id, custom_id | label, user_id}``
``POST /standin/select`` ``{message_id, custom_id, values, user_id}``
``POST /standin/submit-modal`` ``{custom_id, values, user_id}``
``POST /standin/interact`` ``{payload, expect_answer}``   any INTERACTION_CREATE payload
``GET  /standin/message/{id}``              a message as the bot left it, with its version count
``GET  /standin/requests?since=N``          the REST requests from the N-th on (with arrival times)
``POST /standin/forget`` ``{keep}``          drop the history but the messages in ``keep``

The five interaction routes answer the interaction's result (see ``InteractionResult.summary``)
once the bot answered it. An option taking a user, a channel or a role may be given as
``{"user": id}``, ``{"channel": id}`` or ``{"role": {...}}``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from aiohttp import web

from bot.standin.records import Request, StandInError, _json_response, _wire

if TYPE_CHECKING:
    from bot.standin.server import DiscordStandIn

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def request_json(r: Request) -> dict[str, Any]:
    return {"arrived": r.arrived, "method": r.method, "path": r.path, "query": r.query, "status": r.status,
            "json": r.json, "files": [{"filename": f.filename, "size": len(f.data)} for f in r.files]}


def add_control_routes(app: web.Application, standin: DiscordStandIn) -> None:
    def route(method: str, path: str, make: Callable[[dict[str, Any], web.Request], Awaitable[Any]]) -> None:
        async def handle(request: web.Request) -> web.StreamResponse:
            try:
                body = await request.json() if request.can_read_body else {}
                return _json_response(await make(body or {}, request))
            except (StandInError, KeyError, ValueError, TypeError, json.JSONDecodeError) as e:
                return _json_response({"error": f"{type(e).__name__}: {e}"}, 400)

        app.router.add_route(method, "/standin/" + path, handle)

    s = standin

    def user(body: dict[str, Any]) -> dict:
        return s.users[int(body["user_id"])] if body.get("user_id") else s.default_user

    def refs(value: Any) -> Any:
        if isinstance(value, dict) and len(value) == 1:
            (kind, ref), = value.items()
            if kind == "user":
                return s.users[int(ref)]
            if kind == "channel":
                return s.channels[int(ref)]
            if kind == "role":
                return ref
        return value

    async def info(body: dict[str, Any], request: web.Request) -> Any:
        return {"api_base": s.base_url, "gateway_url": s.gateway_url, "control": f"{s.root_url}/standin",
                "application_id": str(s.application_id),
                "sessions": [{"id": x.id, "shard": x.shard, "live": x.live.is_set(), "seq": x.seq}
                             for x in s.sessions.values()],
                "requests": len(s.requests), "messages": len(s.messages)}

    async def wait_bots(body: dict[str, Any], request: web.Request) -> Any:
        await s.wait_for_bots(int(request.query.get("count", "1")), timeout=float(request.query.get("timeout", "60")))
        return await info(body, request)

    async def new_user(body: dict[str, Any], request: web.Request) -> Any:
        return s.user(int(body["id"]) if body.get("id") else None, body.get("name"), bot=bool(body.get("bot")))

    async def new_guild(body: dict[str, Any], request: web.Request) -> Any:
        g = s.guild(int(body["id"]) if body.get("id") else None, body.get("name") or "Test Guild")
        for uid in body.get("members") or []:
            g.add_member(s.users[int(uid)])
        return {"id": str(g.id), "channel": g.channel}

    async def new_channel(body: dict[str, Any], request: web.Request) -> Any:
        return s.guilds[int(body["guild_id"])].text_channel(body.get("name") or "table")

    async def rate_limit(body: dict[str, Any], request: web.Request) -> Any:
        s.rate_limit(body["path"], method=body.get("method"), times=int(body.get("times", 1)),
                     retry_after=float(body.get("retry_after", 0.05)), is_global=bool(body.get("global")))
        return {}

    def wait(body: dict[str, Any]) -> dict[str, Any]:
        return {"timeout": float(body["timeout"])} if body.get("timeout") else {}

    async def slash(body: dict[str, Any], request: web.Request) -> Any:
        channel = s.channels[int(body["channel_id"])] if body.get("channel_id") else None
        guild = s.guilds[int(body["guild_id"])] if body.get("guild_id") else None
        options = {k: refs(v) for k, v in (body.get("options") or {}).items()}
        res = await s.slash(None, body["command"], options, user=user(body), guild=guild, channel=channel, **wait(body))
        return res.summary()

    async def click(body: dict[str, Any], request: web.Request) -> Any:
        res = await s.click(None, int(body["message_id"]), body.get("custom_id"), label=body.get("label"),
                            user=user(body), **wait(body))
        return res.summary()

    async def select(body: dict[str, Any], request: web.Request) -> Any:
        res = await s.select(None, int(body["message_id"]), body["custom_id"], list(body["values"]), user=user(body),
                             **wait(body))
        return res.summary()

    async def submit_modal(body: dict[str, Any], request: web.Request) -> Any:
        res = await s.submit_modal(None, body["custom_id"], dict(body["values"]), user=user(body), **wait(body))
        return res.summary()

    async def interact(body: dict[str, Any], request: web.Request) -> Any:
        res = await s.interact(None, body["payload"], expect_answer=bool(body.get("expect_answer", True)), **wait(body))
        return res.summary()

    async def message(body: dict[str, Any], request: web.Request) -> Any:
        mid = int(request.match_info["id"])
        msg = s.messages.get(mid) or s.deleted_messages.get(mid)
        if msg is None:
            raise StandInError(f"no message {mid}")
        return {"message": _wire(msg), "versions": len(s.versions.get(mid, ())), "deleted": mid in s.deleted_messages}

    async def requests(body: dict[str, Any], request: web.Request) -> Any:
        since = int(request.query.get("since", "0"))
        return {"requests": [request_json(r) for r in s.requests[since:]], "next": len(s.requests),
                "unhandled": [f"{r.method} {r.path}" for r in s.unhandled]}

    async def forget(body: dict[str, Any], request: web.Request) -> Any:
        s.forget(int(k) for k in body.get("keep") or [])
        return {}

    route("GET", "info", info)
    route("GET", "wait-bots", wait_bots)
    route("POST", "user", new_user)
    route("POST", "guild", new_guild)
    route("POST", "channel", new_channel)
    route("POST", "rate-limit", rate_limit)
    route("POST", "slash", slash)
    route("POST", "click", click)
    route("POST", "select", select)
    route("POST", "submit-modal", submit_modal)
    route("POST", "interact", interact)
    route("GET", "message/{id}", message)
    route("GET", "requests", requests)
    route("POST", "forget", forget)
