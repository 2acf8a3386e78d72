"""Online play in the browser: ``dominohall serve`` (needs the ``web`` extra).

* :mod:`.protocol` — the JSON messages between a browser and the server;
* :mod:`.tables` — live tables: typed state, the owner's table core (actions, presence,
  timers, bots; stored, then emitted as events), audiences, the directory, limits, the hub;
* :mod:`.store` — SQLite (default) or PostgreSQL behind one small interface, one schema;
* :mod:`.app` — the FastAPI app (:mod:`.routers`, :mod:`.deps`, :mod:`.models`,
  :mod:`.settings`, :mod:`.security`, :mod:`.errors`): lobby REST, one websocket per
  seat, static client.
"""
