"""How a server's hubs reach their store's log and each other: a :class:`Bus` composed into the hubs.

A hub (:mod:`unotable.server.hub`) is the single writer of one table and knows no socket and no
Redis. What depends on where the table lives is its :class:`Link`, made by the server's bus:

- :mod:`unotable.server.bus.local` (one process): every table is owned here; a client's command is
  decided at once, an entry is appended to the store and told to this process's connections;
- :mod:`unotable.server.bus.redis` (a cluster): a table is owned by the node holding its Redis lease
  (with a fencing token checked by PostgreSQL); commands reach the owner through the table's stream,
  committed entries reach every node's replica through pub/sub, and another node takes a table
  over when its owner dies.

The hub calls its link at each step (a command arrives, an entry is to be stored, a connection
came or went); the link calls the hub back (decide this forwarded command, apply this committed
entry). Nothing subclasses the hub. The contracts on both sides (:class:`Bus`, :class:`Link`,
:class:`Reply`, :class:`BusSignal`; what a link may ask of a hub) are declared in
:mod:`unotable.server.ports`: a bus never imports the hub, not even for type hints.
"""

from unotable.server.ports import Bus, BusSignal, Link, Reply

__all__ = ["Bus", "BusSignal", "Link", "Reply"]
