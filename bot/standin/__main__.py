"""``python -m bot.standin``: serve the Discord stand-in in this process, for a bot in another one
(``python -m bot run`` with ``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL`` set to the URLs it
prints) and a driver using its control API (see :mod:`bot.standin.control`).

It prints one line of JSON (``api_base``, ``gateway_url``, ``control``, ``application_id``),
then serves until interrupted (SIGINT, SIGTERM) or, with ``--until-stdin-closes``, until its
standard input closes (a parent process that ends takes it down)."""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys

from bot.standin.server import DiscordStandIn


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bot.standin", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: loopback)")
    p.add_argument("--port", type=int, default=0, help="the port (default: any free one; the URLs printed say which)")
    p.add_argument("--latency-ms", type=float, default=0.0,
                   help="answer every REST request but a read this many milliseconds late (Discord's round trip)")
    p.add_argument("--application-id", type=int, default=None, help="the bot's application (and user) id")
    p.add_argument("--until-stdin-closes", action="store_true", help="stop when standard input closes")
    return p.parse_args(argv)


async def serve(args: argparse.Namespace) -> None:
    standin = DiscordStandIn(application_id=args.application_id, latency=args.latency_ms / 1000, host=args.host,
                             port=args.port)
    await standin.start()
    print(json.dumps({"api_base": standin.base_url, "gateway_url": standin.gateway_url,
                      "control": f"{standin.root_url}/standin", "application_id": str(standin.application_id)}),
          flush=True)
    loop = asyncio.get_running_loop()
    done = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, done.set)
    if args.until_stdin_closes:
        reading = loop.run_in_executor(None, sys.stdin.read)
        reading.add_done_callback(lambda _: done.set())
    try:
        await done.wait()
    finally:
        await standin.stop()


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    from bot.loop import fast_event_loop

    fast_event_loop()
    asyncio.run(serve(args))


if __name__ == "__main__":
    main()
