"""The bench's parts (``python -m bot bench``): pictures, the replay viewer and the table service's
figures. The press through discord.py and the Discord stand-in (bot/standin) is not measured here yet."""
