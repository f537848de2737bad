"""The bench's own Discord stand-in and the real-press figures (``python -m bot bench``).

``server``: a small Discord REST stand-in run in a child process (so its work is not counted as
the bot's CPU), answering only the routes the bot uses, recording when each request arrived.
``feeder``: the bot's side, in the bench's process: a real ``DeckhandBot`` logged in to the
stand-in, fed real INTERACTION_CREATE payloads through discord.py's own parser.
``press``: the figures of the real press (latency, CPU, store round trips, throughput).
"""
