"""The event log as a partitioned table (PostgreSQL): partitions by ranges of game ids.

Why ranges of game ids:
- every event of a game lies in one partition, so a move's append, a game's fold and a replay's
  read each touch one partition's index (the planner prunes the others on `game_id`);
- game ids only grow, so appends go to the newest partitions: their indexes are the small, hot
  ones, while older partitions hold finished games that are never written again (vacuumed and
  frozen once; an operator may detach one and archive it);
- the unique (game, seq) constraint includes the partition key, as PostgreSQL requires.
Hashing would spread every append over every partition's index and leave nothing to archive;
ranges of time would split a game across two partitions and could not keep (game, seq) unique.

The log that was there before the conversion stays as it is, as the first partition
(`games_gameevent_before`): no event is copied or rewritten. The event ids keep their sequence;
new partitions index no event id of their own (nothing looks an event up by id: every read is by
game), which keeps an append to two index entries, (game, seq) and the actor.

Partitions are made ahead of need by `games_gameevent_make_partitions`, a function owned by the
tables' owner that the application's role may only call (SECURITY DEFINER: the role itself has
no DDL), from the beat (`games.tasks.event_log_partitions_ensure`), never on a move's path.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection

# The function the beat calls; the application's role may execute it (manage.py grant_app_role).
MAKER = "games_gameevent_make_partitions(bigint, integer)"

MAKER_SQL = """
CREATE OR REPLACE FUNCTION games_gameevent_make_partitions(games_per_partition bigint, ahead integer)
RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    top bigint;
    newest bigint;
    made integer := 0;
    part text;
BEGIN
    IF games_per_partition < 1 OR ahead < 1 OR ahead > 1000 THEN
        RAISE EXCEPTION 'bad partition size % or count ahead %', games_per_partition, ahead;
    END IF;
    -- One maker at a time: two beats must not both try to make the same partition.
    PERFORM pg_advisory_xact_lock(hashtext('games_gameevent_make_partitions'));
    SELECT max(substring(pg_get_expr(c.relpartbound, c.oid) FROM 'TO \\(''?(-?[0-9]+)''?\\)')::bigint)
      INTO top
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'games_gameevent'::regclass;
    IF top IS NULL THEN
        RAISE EXCEPTION 'games_gameevent has no partition to make more after';
    END IF;
    -- The newest game id handed out, committed or not.
    SELECT GREATEST(COALESCE((SELECT max(id) FROM games_game), 0),
                    COALESCE(pg_sequence_last_value(pg_get_serial_sequence('games_game', 'id')), 0))
      INTO newest;
    WHILE top <= newest + ahead * games_per_partition LOOP
        part := 'games_gameevent_g' || top;
        EXECUTE format('CREATE TABLE %I PARTITION OF games_gameevent FOR VALUES FROM (%s) TO (%s)',
                       part, top, top + games_per_partition);
        -- The partition's (game, seq) index is named as the append path recognises it (games/sql.py).
        EXECUTE format('ALTER INDEX %I RENAME TO %I', (
            SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
              JOIN pg_index x ON x.indexrelid = c.oid
             WHERE i.inhparent = 'gameevent_unique_seq'::regclass AND x.indrelid = part::regclass
        ), part || '_unique_seq');
        -- Row triggers come from the parent; TRUNCATE of the partition itself needs its own.
        EXECUTE format('CREATE TRIGGER %I BEFORE TRUNCATE ON %I '
                       'FOR EACH STATEMENT EXECUTE FUNCTION games_gameevent_no_truncate()',
                       part || '_no_truncate', part);
        top := top + games_per_partition;
        made := made + 1;
    END LOOP;
    RETURN made;
END;
$$;
REVOKE ALL ON FUNCTION games_gameevent_make_partitions(bigint, integer) FROM PUBLIC;
"""

# The log as it is becomes the first partition; {bound} is the first game id past it.
CONVERT_SQL = """
LOCK TABLE games_gameevent IN ACCESS EXCLUSIVE MODE;
ALTER TABLE games_gameevent RENAME TO games_gameevent_before;
ALTER TABLE games_gameevent_before
    RENAME CONSTRAINT gameevent_unique_seq TO games_gameevent_before_unique_seq;
DROP TRIGGER games_gameevent_append_only ON games_gameevent_before;
DROP TRIGGER games_gameevent_no_truncate ON games_gameevent_before;
-- The ids go on from the same numbers, from a sequence that belongs to the new table.
ALTER TABLE games_gameevent_before ALTER COLUMN id DROP IDENTITY;
CREATE SEQUENCE games_gameevent_id_seq AS bigint;
SELECT setval('games_gameevent_id_seq', (SELECT COALESCE(max(id), 0) + 1 FROM games_gameevent_before), false);
CREATE TABLE games_gameevent (
    id bigint NOT NULL DEFAULT nextval('games_gameevent_id_seq'),
    seq integer NOT NULL CONSTRAINT games_gameevent_seq_check CHECK (seq >= 0),
    type varchar(40) NOT NULL,
    version smallint NOT NULL CONSTRAINT games_gameevent_version_check CHECK (version >= 0),
    payload jsonb NOT NULL,
    created_at timestamp with time zone NOT NULL,
    actor_id integer NULL,
    game_id bigint NOT NULL,
    CONSTRAINT gameevent_unique_seq UNIQUE (game_id, seq),
    CONSTRAINT gameevent_seq_from_1 CHECK (seq >= 1)
) PARTITION BY RANGE (game_id);
ALTER SEQUENCE games_gameevent_id_seq OWNED BY games_gameevent.id;
ALTER TABLE games_gameevent ADD CONSTRAINT games_gameevent_actor_fk FOREIGN KEY (actor_id)
    REFERENCES auth_user (id) DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE games_gameevent ADD CONSTRAINT games_gameevent_game_fk FOREIGN KEY (game_id)
    REFERENCES games_game (id) DEFERRABLE INITIALLY DEFERRED;
CREATE INDEX games_gameevent_actor ON games_gameevent (actor_id);
ALTER TABLE games_gameevent ATTACH PARTITION games_gameevent_before FOR VALUES FROM (MINVALUE) TO ({bound});
CREATE TRIGGER games_gameevent_append_only BEFORE UPDATE OR DELETE ON games_gameevent
    FOR EACH ROW EXECUTE FUNCTION games_gameevent_append_only();
CREATE TRIGGER games_gameevent_no_truncate BEFORE TRUNCATE ON games_gameevent
    FOR EACH STATEMENT EXECUTE FUNCTION games_gameevent_no_truncate();
CREATE TRIGGER games_gameevent_before_no_truncate BEFORE TRUNCATE ON games_gameevent_before
    FOR EACH STATEMENT EXECUTE FUNCTION games_gameevent_no_truncate();
"""

# Back to one table (a downgrade): every event copied, ids kept.
FLATTEN_SQL = """
LOCK TABLE games_gameevent IN ACCESS EXCLUSIVE MODE;
CREATE TABLE games_gameevent_flat (
    id bigint NOT NULL PRIMARY KEY GENERATED BY DEFAULT AS IDENTITY,
    seq integer NOT NULL CONSTRAINT games_gameevent_seq_check CHECK (seq >= 0),
    type varchar(40) NOT NULL,
    version smallint NOT NULL CONSTRAINT games_gameevent_version_check CHECK (version >= 0),
    payload jsonb NOT NULL,
    created_at timestamp with time zone NOT NULL,
    actor_id integer NULL,
    game_id bigint NOT NULL
);
INSERT INTO games_gameevent_flat (id, seq, type, version, payload, created_at, actor_id, game_id)
    SELECT id, seq, type, version, payload, created_at, actor_id, game_id FROM games_gameevent ORDER BY id;
SELECT setval(pg_get_serial_sequence('games_gameevent_flat', 'id'),
              (SELECT COALESCE(max(id), 0) + 1 FROM games_gameevent_flat), false);
DROP TABLE games_gameevent;
DROP FUNCTION games_gameevent_make_partitions(bigint, integer);
ALTER TABLE games_gameevent_flat RENAME TO games_gameevent;
ALTER INDEX games_gameevent_flat_pkey RENAME TO games_gameevent_pkey;
ALTER SEQUENCE games_gameevent_flat_id_seq RENAME TO games_gameevent_id_seq;
ALTER TABLE games_gameevent ADD CONSTRAINT gameevent_unique_seq UNIQUE (game_id, seq);
ALTER TABLE games_gameevent ADD CONSTRAINT gameevent_seq_from_1 CHECK (seq >= 1);
ALTER TABLE games_gameevent ADD CONSTRAINT games_gameevent_actor_fk FOREIGN KEY (actor_id)
    REFERENCES auth_user (id) DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE games_gameevent ADD CONSTRAINT games_gameevent_game_fk FOREIGN KEY (game_id)
    REFERENCES games_game (id) DEFERRABLE INITIALLY DEFERRED;
CREATE INDEX games_gameevent_actor_id_989c6297 ON games_gameevent (actor_id);
CREATE TRIGGER games_gameevent_append_only BEFORE UPDATE OR DELETE ON games_gameevent
    FOR EACH ROW EXECUTE FUNCTION games_gameevent_append_only();
CREATE TRIGGER games_gameevent_no_truncate BEFORE TRUNCATE ON games_gameevent
    FOR EACH STATEMENT EXECUTE FUNCTION games_gameevent_no_truncate();
"""


def first_bound(newest_game_id: int, games_per_partition: int) -> int:
    """Where the first partition after the converted log starts: the next multiple of the
    partition size past every game id handed out."""
    return (newest_game_id // games_per_partition + 1) * games_per_partition


def event_log_partitions_ensure() -> int:
    """Make the partitions the next games will need (EVENT_LOG_PARTITIONS_AHEAD of them past the
    newest game); how many were made. Nothing on SQLite, whose log is one table."""
    if connection.vendor != "postgresql":
        return 0
    with connection.cursor() as cur:
        cur.execute(
            "SELECT games_gameevent_make_partitions(%s, %s)",
            [settings.EVENT_LOG_GAMES_PER_PARTITION, settings.EVENT_LOG_PARTITIONS_AHEAD],
        )
        return int(cur.fetchone()[0])


def event_log_partitions() -> list[tuple[str, str]]:
    """Every partition of the log with its bounds, oldest first (PostgreSQL)."""
    with connection.cursor() as cur:
        cur.execute(
            "SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) FROM pg_inherits i "
            "JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'games_gameevent'::regclass "
            "ORDER BY c.relname = 'games_gameevent_before' DESC, length(c.relname), c.relname"
        )
        return [(name, bound) for name, bound in cur.fetchall()]
