"""Online play in the browser: ``dominohall serve`` (needs the ``web`` extra).

* :mod:`.protocol` — the JSON messages between a browser and the server;
* :mod:`.rooms` — live tables: seats, tokens, bots, persistence before broadcast;
* :mod:`.store` — SQLite (default) or PostgreSQL behind one small interface;
* :mod:`.app` — the FastAPI app: lobby REST, one websocket per seat, static client.
"""
