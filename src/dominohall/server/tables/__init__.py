"""Live tables, apart from transport and storage.

* :mod:`.state` — typed table state: :class:`Seat`, :class:`TableSettings`,
  :class:`TableState` (the game, seat authentication, the deal's commitment, the record);
* :mod:`.spec` — the lobby's catalogue and a create request checked into a
  :class:`TableSpec`;
* :mod:`.core` — :class:`TableCore`, the owner's table: actions, joins, presence, Ready,
  timers and bots under its lock, applied, stored, then emitted as events;
* :mod:`.audience` — :class:`Audience`, this node's connections to a table and what each
  is sent;
* :mod:`.directory` — which node owns which table (:class:`LocalDirectory`: one node;
  :class:`Cluster`: what the hub asks of a cluster node);
* :mod:`.limits` — :class:`Limits`, :class:`RateLimiter`, :class:`FairQueue`;
* :mod:`.bots` — the bots' worker pool;
* :mod:`.hub` — :class:`Hub`, the node: its tables, audiences, store, bots, directory.
"""

from .audience import Audience, Connection
from .core import TABLE_EVERY, TableCore, TableListener
from .directory import Cluster, Directory, LocalDirectory
from .hub import Hub, Successor
from .limits import FairQueue, Limits, RateLimiter
from .spec import STRONG_BOTS, TableSpec, lobby_catalogue
from .state import Seat, TableSettings, TableState

__all__ = ["TABLE_EVERY", "STRONG_BOTS", "Audience", "Cluster", "Connection", "Directory",
           "FairQueue", "Hub", "Limits", "LocalDirectory", "RateLimiter", "Seat", "Successor",
           "TableCore", "TableListener", "TableSettings", "TableSpec", "TableState",
           "lobby_catalogue"]
