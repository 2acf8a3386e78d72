"""The playing community around the tables: accounts (optional; a name that stays),
sessions, and later ratings, quick play, friends and chat.

Nothing here is needed to play: a guest plays exactly as before.  The logic lives in
plain modules over the server's store (:mod:`.store`); :mod:`.routes` is the HTTP face,
included by :func:`dominohall.server.app.create_app`.
"""
