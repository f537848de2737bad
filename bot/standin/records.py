"""What the stand-in records: the requests discord.py made, the files it uploaded, everything the
bot showed (``Shown``) and everything it answered to one interaction (``InteractionResult``); the
JSON helpers and the ERROR-log collector the rest of the package shares."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _dt
import json
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator

from aiohttp import web

if TYPE_CHECKING:
    from bot.standin.server import DiscordStandIn

DISCORD_EPOCH_MS = 1420070400000
# How long a wait may last before a test fails as hung. Every wait here is for an event (discord.py's
# handler tasks finishing, the bot reading a gateway frame); this is only the safety net, so it is
# long enough that no loaded machine reaches it (a short deadline made the suite flaky under load).
SAFETY_TIMEOUT = 120.0
EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15

# Names of the asyncio tasks discord.py 2.7.1 spawns while handling an interaction / event.
DISPATCH_TASK_PREFIXES: tuple[str, ...] = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-modal-dispatch-",
    "discord-ui-dynamic-item-",
    "discord.py: ",
)


class StandInError(AssertionError):
    """A test drove the stand-in in a way real Discord would not allow, or the bot misbehaved."""


@dataclass
class UploadedFile:
    """A file part of a multipart request (or a stored attachment)."""

    filename: str
    data: bytes
    content_type: str | None = None
    field: str | None = None


@dataclass
class Request:
    """One HTTP request discord.py made to the stand-in (path is relative to /api/v10)."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[UploadedFile] = field(default_factory=list)
    status: int | None = None
    auth: str | None = None  # the Authorization header ("Bot <token>"), to tell bot processes apart
    arrived: float = 0.0  # time.monotonic() when it arrived (one clock for every process of the machine)


@dataclass
class Shown:
    """One thing the bot showed someone, as it was at that moment (later edits never change it).

    ``kind``: ``"message"`` (a message as created, or as it became after one edit), ``"modal"``
    (a modal's payload, callback type 9) or ``"autocomplete"`` (the choices of callback type 8).
    ``reader``: the one user who sees it (an ephemeral message's or a DM's user, the user a modal
    or autocomplete answered), or ``None`` for everyone in the channel. ``how`` says which request
    made it: ``send`` (POST channel message), ``edit`` (PATCH channel message), ``response``
    (callback 4), ``deferred`` (callback 5), ``update`` (callback 7), ``webhook-edit`` (PATCH
    @original or a follow-up), ``followup`` (POST webhook), ``modal``, ``autocomplete``.
    ``version`` counts the versions of one message from 0 (its creation). ``payload``: a deep copy
    of the message (``_wire`` form) or of the callback's data; ``files``: the attachments' bytes as
    received (a message's, in the order of its ``attachments``)."""

    seq: int
    kind: str
    how: str
    reader: int | None
    payload: dict
    message_id: int | None = None
    channel_id: int | None = None
    version: int = 0
    interaction_user: int | None = None  # who pressed/typed what made the bot show it (None: no interaction)
    files: list[UploadedFile] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.payload.get("flags") or 0) & EPHEMERAL) if self.kind == "message" else True


def _now_iso() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat()


def _json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # Content-Type must be exactly "application/json" (discord.py compares the header verbatim).
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


def _error(status: int, code: int, message: str, errors: Any = None) -> web.Response:
    body: dict[str, Any] = {"code": code, "message": message}
    if errors is not None:
        body["errors"] = errors
    return _json_response(body, status)


def walk_components(components: list[dict] | None) -> Iterator[dict]:
    """Every component dict in a message/modal component tree (rows, containers, sections, labels)."""
    for comp in components or []:
        yield comp
        yield from walk_components(comp.get("components"))
        if isinstance(comp.get("component"), dict):
            yield from walk_components([comp["component"]])
        if isinstance(comp.get("accessory"), dict):
            yield from walk_components([comp["accessory"]])


def _wire(msg: dict) -> dict:
    """The message JSON as Discord would send it (drops the stand-in's private bookkeeping keys)."""
    return {k: v for k, v in msg.items() if not k.startswith("_")}


# --------------------------------------------------------------------------------------------------
# discord.py's ERROR logs
# --------------------------------------------------------------------------------------------------


class _ErrorCollector(logging.Handler):
    def __init__(self, records: list[logging.LogRecord] | None = None) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = records if records is not None else []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _format_record(rec: logging.LogRecord) -> str:
    text = f"{rec.name}: {rec.getMessage()}"
    if rec.exc_info and rec.exc_info[1] is not None:
        text += f" [{type(rec.exc_info[1]).__name__}: {rec.exc_info[1]}]"
    return text


@contextlib.contextmanager
def fail_on_discord_errors(logger_name: str = "discord") -> Iterator[list[logging.LogRecord]]:
    """Collect ERROR logs of ``logger_name`` (and children); raise AssertionError at exit if any."""
    handler = _ErrorCollector()
    logger = logging.getLogger(logger_name)
    logger.addHandler(handler)
    try:
        yield handler.records
    finally:
        logger.removeHandler(handler)
    if handler.records:
        raise AssertionError(
            f"{len(handler.records)} ERROR log(s) from {logger_name!r}:\n"
            + "\n".join(_format_record(r) for r in handler.records)
        )


# --------------------------------------------------------------------------------------------------
# Interaction results
# --------------------------------------------------------------------------------------------------


TOKEN_LIFE = 15 * 60  # an interaction's token takes follow-ups and edits for 15 minutes


class InteractionResult:
    """Everything the bot sent in answer to one interaction (callback, @original edits, follow-ups)."""

    def __init__(self, standin: DiscordStandIn, payload: dict) -> None:
        self.standin = standin
        self.payload = payload
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.type: int = payload["type"]  # the interaction type (2 command, 3 component, 4 autocomplete, 5 modal)
        self.channel_id: int | None = int(payload["channel_id"]) if payload.get("channel_id") else None
        self.guild_id: int | None = int(payload["guild_id"]) if payload.get("guild_id") else None
        who = payload.get("member", {}).get("user") or payload.get("user") or {}
        self.user_id: int | None = int(who["id"]) if who else None
        self.source_message_id: int | None = int(payload["message"]["id"]) if isinstance(payload.get("message"), dict) else None
        self.callbacks: list[dict] = []  # {"type": int, "data": dict | None, "files": [UploadedFile]}
        self.original_message_id: int | None = None
        self.followup_ids: list[int] = []
        self.edits: list[dict] = []  # bodies of @original / webhook message edits made with this token
        self.requests: list[Request] = []  # every request made while this interaction was handled
        self.expect_answer = True
        self.answered_event = asyncio.Event()  # set by the first callback (a bot in another process: its answer)
        self.created = time.monotonic()  # its token answers follow-ups for TOKEN_LIFE seconds, as Discord's

    def __repr__(self) -> str:
        cb = self.callback_type
        return (
            f"<InteractionResult type={self.type} callback={cb} message_id={self.message_id} "
            f"ephemeral={self.ephemeral} followups={len(self.followup_ids)}>"
        )

    # --- the callback ------------------------------------------------------------------------
    @property
    def answered(self) -> bool:
        return bool(self.callbacks)

    @property
    def callback(self) -> dict:
        if not self.callbacks:
            raise StandInError(f"the bot never answered interaction {self.id} (Discord: 'This interaction failed')")
        return self.callbacks[0]

    @property
    def callback_type(self) -> int | None:
        """4 message, 5 deferred message, 6 deferred update, 7 update message, 8 autocomplete, 9 modal."""
        return self.callbacks[0]["type"] if self.callbacks else None

    @property
    def data(self) -> dict:
        return self.callback.get("data") or {}

    # --- the message the callback created or updated -------------------------------------------
    @property
    def message_id(self) -> int | None:
        """Id of the message the answer created (4/5) or updated (6/7 on the clicked message)."""
        if self.original_message_id is not None:
            return self.original_message_id
        return self.followup_ids[0] if self.followup_ids else None

    @property
    def message(self) -> dict | None:
        mid = self.message_id
        if mid is None:
            return None
        return self.standin.messages.get(mid) or self.standin.deleted_messages.get(mid)

    def _msg_or_data(self, key: str, default: Any) -> Any:
        msg = self.message
        if msg is not None and (self.callback_type in (4, 5, 6, 7) or not self.callbacks):
            return msg.get(key, default)
        if self.callbacks:
            return self.data.get(key, default) if self.data.get(key) is not None else default
        return default

    @property
    def flags(self) -> int:
        return int(self._msg_or_data("flags", 0) or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def content(self) -> str:
        return self._msg_or_data("content", "") or ""

    @property
    def embeds(self) -> list[dict]:
        return self._msg_or_data("embeds", []) or []

    @property
    def embed(self) -> dict:
        if not self.embeds:
            raise StandInError(f"no embed in the answer: {self!r}")
        return self.embeds[0]

    @property
    def components(self) -> list[dict]:
        return self._msg_or_data("components", []) or []

    @property
    def allowed_mentions(self) -> dict | None:
        return self._msg_or_data("allowed_mentions", None)

    @property
    def files(self) -> list[UploadedFile]:
        mid = self.message_id
        if mid is not None and (self.callback_type in (4, 5, 6, 7) or not self.callbacks):
            return self.standin.files(mid)
        return [f for cb in self.callbacks for f in cb["files"]]

    @property
    def text(self) -> str:
        """Content plus every embed's title/description/fields/footer, for loose assertions."""
        return self.standin.message_text(self.message) if self.message else self.content

    @property
    def modal(self) -> dict | None:
        return self.data if self.callback_type == 9 else None

    @property
    def choices(self) -> list[dict] | None:
        return self.data.get("choices", []) if self.callback_type == 8 else None

    @property
    def followups(self) -> list[dict]:
        return [self.standin.messages.get(i) or self.standin.deleted_messages[i] for i in self.followup_ids]

    @property
    def messages(self) -> list[dict]:
        """The original response message (if any) followed by the follow-ups."""
        out = [self.message] if self.original_message_id is not None and self.message else []
        return out + [m for m in self.followups if m not in out]

    def summary(self) -> dict[str, Any]:
        """This answer as JSON (for a driver in another process: ``python -m bot.standin``'s control)."""
        return {
            "id": str(self.id),
            "token": self.token,
            "answered": self.answered,
            "callback_type": self.callback_type,
            "message_id": str(self.message_id) if self.message_id is not None else None,
            "followup_ids": [str(i) for i in self.followup_ids],
            "ephemeral": self.ephemeral,
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "modal": self.modal,
            "choices": self.choices,
            "requests": len(self.requests),
        }

    # --- finders --------------------------------------------------------------------------------
    def _mid(self, message_id: int | None) -> int:
        mid = message_id if message_id is not None else self.message_id
        if mid is None:
            raise StandInError(f"this answer has no message: {self!r}")
        return mid

    def buttons(self, message_id: int | None = None) -> list[tuple[str | None, str | None, bool]]:
        return self.standin.buttons(self._mid(message_id))

    def find_button(self, *args: Any) -> str:
        """find_button(label_substring) on this answer's message, or find_button(message_id, label_substring)."""
        if len(args) == 2:
            return self.standin.find_button(args[0], args[1])
        (label,) = args
        return self.standin.find_button(self._mid(None), label)
