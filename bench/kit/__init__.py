"""The benchmark kit: what every bench stands on.

- `stack`: the processes a bench (or a test) runs against: ASGI servers, Celery workers and an
  analyst on one PostgreSQL database and one Redis (`live_stack`), the production shape through
  scripts/prod with nginx (`ProdStack`), the database and Redis made ready and the bench's games
  set up through the services (`prepared_stack`), an older commit's code beside this one
  (`ref_worktree`);
- `client`: a scripted browser page that speaks the pages' protocol (docs/PROTOCOL.md) as
  static/js/core/socket.js and core/gamesocket.js do: the socket, its reconnection waits, pings,
  resends and resumes, and keep-alive HTTP;
- `stats`: percentiles, the machine's speed and jitter, CPU per process and per part, the shared
  parts' counters, and the report's lines.

A bench module is then a scenario: what its pages do, when, and which figures it prints.
"""
