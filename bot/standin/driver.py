"""The driver a test (or a bench) plays Discord's users with: a slash command, an autocomplete, a
button's press, a select's pick, a modal's submission — each sent to the bot as Discord sends it,
an INTERACTION_CREATE over the gateway, and waited for: the bot has parsed it (see
:mod:`bot.standin.gateway`), then discord.py's handler tasks have finished (``settle``), and
anything discord.py logged at ERROR meanwhile is raised. A bot in another process (the ``bot``
given is ``None`` or not connected here) is waited for by its answer instead."""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import Any

from bot.standin.fakes import FakeGuild
from bot.standin.records import (
    DISPATCH_TASK_PREFIXES,
    SAFETY_TIMEOUT,
    InteractionResult,
    Request,
    StandInError,
    _format_record,
    _wire,
    walk_components,
)


def _in_this_process(bot: Any) -> bool:
    """Whether ``bot`` is connected to the gateway here (its handler tasks run in this loop)."""
    return bot is not None and bot.is_ready() and not bot.is_closed()


class Driver:
    """The test-facing driver of :class:`DiscordStandIn` (a part of it)."""

    guilds: dict[int, FakeGuild]
    channels: dict[int, dict]
    messages: dict[int, dict]
    modals: list[dict]
    interactions: dict[str, InteractionResult]
    unanswered: list[InteractionResult]
    requests: list[Request]
    discord_errors: list[logging.LogRecord]
    settle_ignore: set[str]
    _error_mark: int

    # --- settle ---------------------------------------------------------------------------------
    def _pending_dispatch_tasks(self) -> list[asyncio.Task]:
        me = asyncio.current_task()
        out = []
        for t in asyncio.all_tasks():
            if t is me or t.done():
                continue
            name = t.get_name()
            if name.startswith(DISPATCH_TASK_PREFIXES) and not any(name.startswith(p) for p in self.settle_ignore):
                out.append(t)
        return out

    async def settle(self, bot: Any = None, *, timeout: float = SAFETY_TIMEOUT, allow_errors: bool = False) -> None:
        """Wait until discord.py finished handling everything dispatched so far (command invokers, view,
        modal and dynamic-item callbacks, event listeners), then re-raise the first exception discord.py
        logged at ERROR meanwhile (unless allow_errors; they stay in ``self.discord_errors``)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        failures: list[BaseException] = []
        quiet_rounds = 0 if _in_this_process(bot) else 3  # a bot elsewhere has no handler tasks here
        while quiet_rounds < 3:
            await asyncio.sleep(0)
            pending = self._pending_dispatch_tasks()
            if not pending:
                quiet_rounds += 1
                continue
            quiet_rounds = 0
            remaining = deadline - loop.time()
            if remaining <= 0:
                names = ", ".join(f"{t.get_name()} ({t.get_coro()!r})" for t in pending)
                raise StandInError(
                    f"settle(): discord.py still busy after {timeout}s: {names} "
                    "(add long-lived task name prefixes to standin.settle_ignore)"
                )
            done, _ = await asyncio.wait(pending, timeout=remaining)
            for t in done:
                if not t.cancelled() and t.exception() is not None:
                    failures.append(t.exception())
        new_errors = self.discord_errors[self._error_mark :]
        self._error_mark = len(self.discord_errors)
        if failures:
            raise failures[0]
        if new_errors and not allow_errors:
            first = new_errors[0]
            summary = "; ".join(_format_record(r) for r in new_errors)
            exc = first.exc_info[1] if first.exc_info else None
            while isinstance(getattr(exc, "original", None), BaseException):  # CommandInvokeError & co.
                exc = exc.original  # type: ignore[union-attr]
            if exc is not None:
                exc.add_note(f"(re-raised by DiscordStandIn.settle: discord logged ERROR: {summary})")
                raise exc
            raise StandInError(f"discord logged ERROR: {summary}")

    # --- delivering -----------------------------------------------------------------------------
    async def deliver(self, bot: Any, payload: dict, *, expect_answer: bool = True, timeout: float = SAFETY_TIMEOUT,
                      shard: int | None = None) -> InteractionResult:
        """Send an INTERACTION_CREATE over the gateway and return once the bot has parsed it (its
        handlers started, not finished): the answer fills in the result as it arrives. ``interact``
        is this and the waiting; this alone lets a test hold several interactions in flight."""
        result = InteractionResult(self, payload)
        result.expect_answer = expect_answer
        self.interactions[payload["token"]] = result
        await self.gateway_dispatch("INTERACTION_CREATE", payload, shard=shard, timeout=timeout)
        return result

    async def interact(
        self,
        bot: Any,
        payload: dict,
        *,
        allow_errors: bool = False,
        expect_answer: bool = True,
        timeout: float = SAFETY_TIMEOUT,
        shard: int | None = None,
    ) -> InteractionResult:
        """Send any INTERACTION_CREATE payload to the bot over the gateway, wait until it was handled,
        return what it answered. A bot connected here: until discord.py's handlers finished; one in
        another process (``bot`` None, or a bot only logged in here to build payloads): until its
        first answer (when ``expect_answer``)."""
        await self.settle(bot, timeout=timeout)
        start = len(self.requests)
        result: InteractionResult | None = None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        try:
            result = await self.deliver(bot, payload, expect_answer=expect_answer, timeout=timeout, shard=shard)
            if expect_answer and not _in_this_process(bot):
                try:
                    await asyncio.wait_for(result.answered_event.wait(), max(deadline - loop.time(), 0.001))
                except asyncio.TimeoutError:
                    pass  # unanswered: flagged below
            await self.settle(bot, timeout=max(deadline - loop.time(), 0.001), allow_errors=allow_errors)
        finally:
            if result is not None:
                result.requests = self.requests[start:]
                if expect_answer and not result.callbacks:
                    self.unanswered.append(result)
        return result

    # --- what users do --------------------------------------------------------------------------
    async def slash(
        self,
        bot: Any,
        command: str,
        options: dict | None = None,
        *,
        user: dict | None = None,
        guild: FakeGuild | None = None,
        channel: dict | None = None,
        locale: str = "en-US",
        **kw: Any,
    ) -> InteractionResult:
        """Run /command (e.g. "game new") with typed options as `user` in guild/channel (guild=None: DM).
        ``bot=None`` (a bot in another process): the command as the bot synced it."""
        user = user or self.default_user
        if channel is not None and guild is None and channel.get("guild_id"):
            guild = self.guilds[int(channel["guild_id"])]
        data = self._command_data(bot, command, options, guild, channel=channel)
        payload = self._payload(2, data, user, guild, channel, locale)
        return await self.interact(bot, payload, **kw)

    async def autocomplete(
        self,
        bot: Any,
        command: str,
        options: dict | None = None,
        *,
        focused: str,
        user: dict | None = None,
        guild: FakeGuild | None = None,
        channel: dict | None = None,
        locale: str = "en-US",
        **kw: Any,
    ) -> list[dict]:
        """The choices ({name, value}) the bot offers while `user` types option `focused`."""
        user = user or self.default_user
        if channel is not None and guild is None and channel.get("guild_id"):
            guild = self.guilds[int(channel["guild_id"])]
        data = self._command_data(bot, command, options, guild, focused=focused, channel=channel)
        payload = self._payload(4, data, user, guild, channel, locale)
        res = await self.interact(bot, payload, **kw)
        if res.callback_type != 8:
            raise StandInError(f"autocomplete answered with callback type {res.callback_type}, not 8")
        return res.choices or []

    async def click(
        self,
        bot: Any,
        message_id: int | str,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        user: dict | None = None,
        **kw: Any,
    ) -> InteractionResult:
        """Press a button (by custom_id, or by label substring) on a message the bot posted."""
        user = user or self.default_user
        msg = self._message(message_id)
        self._check_visible(msg, user)
        if custom_id is None:
            if label is None:
                raise StandInError("click() needs custom_id or label")
            custom_id = self.find_button(int(message_id), label)
        comp = self._component(msg, custom_id)
        if comp.get("type") != 2:
            raise StandInError(f"{custom_id!r} is a type-{comp.get('type')} component, not a button")
        if comp.get("disabled"):
            raise StandInError(f"button {custom_id!r} ({comp.get('label')!r}) is disabled; nobody can press it")
        data = {"custom_id": custom_id, "component_type": 2}
        if "id" in comp:
            data["id"] = comp["id"]
        return await self.interact(bot, self._component_payload(msg, data, user), **kw)

    async def select(
        self, bot: Any, message_id: int | str, custom_id: str, values: list[str], *, user: dict | None = None, **kw: Any
    ) -> InteractionResult:
        """Pick `values` in a string select the bot posted."""
        user = user or self.default_user
        msg = self._message(message_id)
        self._check_visible(msg, user)
        comp = self._component(msg, custom_id)
        if comp.get("type") != 3:
            raise StandInError(f"{custom_id!r} is a type-{comp.get('type')} component, not a string select")
        if comp.get("disabled"):
            raise StandInError(f"select {custom_id!r} is disabled")
        options = [o["value"] for o in comp.get("options", [])]
        bad = [v for v in values if v not in options]
        if bad:
            raise StandInError(f"select {custom_id!r} has no option(s) {bad}; options: {options}")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise StandInError(f"select {custom_id!r} takes {lo}-{hi} values, got {len(values)}")
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        if "id" in comp:
            data["id"] = comp["id"]
        return await self.interact(bot, self._component_payload(msg, data, user), **kw)

    async def submit_modal(
        self, bot: Any, custom_id: str, values: dict[str, Any], *, user: dict | None = None, **kw: Any
    ) -> InteractionResult:
        """Submit the modal `custom_id` the bot showed `user` (callback type 9) with {field custom_id: value}."""
        user = user or self.default_user
        for modal in reversed(self.modals):
            if modal["data"]["custom_id"] == custom_id and not modal["submitted"] and modal["user_id"] == int(user["id"]):
                break
        else:
            shown = [(m["data"]["custom_id"], m["user_id"]) for m in self.modals if not m["submitted"]]
            raise StandInError(f"the bot showed user {user['id']} no modal {custom_id!r}; open modals: {shown}")
        used: set[str] = set()
        comps = self._modal_answer(modal["data"].get("components", []), values, used, itertools.count(1))
        unknown = set(values) - used
        if unknown:
            raise StandInError(f"modal {custom_id!r} has no field(s) {sorted(unknown)}")
        modal["submitted"] = True
        src = modal["payload"]
        guild = self.guilds.get(int(src["guild_id"])) if src.get("guild_id") else None
        ch = self.channels.get(int(src["channel_id"])) or src["channel"]
        payload = self._payload(5, {"custom_id": custom_id, "components": comps}, user, guild, ch)
        if modal["source_message_id"] is not None and modal["source_message_id"] in self.messages:
            payload["message"] = _wire(self.messages[modal["source_message_id"]])
        return await self.interact(bot, payload, **kw)

    def modal_fields(self, custom_id: str) -> list[dict]:
        """The input components (text inputs, selects...) of the last modal the bot showed with this custom_id."""
        for modal in reversed(self.modals):
            if modal["data"]["custom_id"] == custom_id:
                return [c for c in walk_components(modal["data"]["components"]) if c.get("custom_id")]
        raise StandInError(f"the bot never showed a modal {custom_id!r}")
