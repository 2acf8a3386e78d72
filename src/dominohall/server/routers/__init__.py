"""The app's routes, one router per resource: :mod:`.site` (pages, ``/docs``,
``/api/games``), :mod:`.tables` (the tables' REST API), :mod:`.ws` (the game websocket);
the replay pages and How to play are :mod:`dominohall.server.pages`, the catalogs
:mod:`dominohall.server.i18n_routes`."""
