import { streamLockClass, TOMBSTONE_REVISION, type EventStoreSchema } from './eventStoreSchema';

/**
 * The plpgsql function behind `append`. One call (one round trip, one transaction) performs a batch of appends,
 * in order, as if one after the other; a batch of one is the plain case. The adapter batches the appends that
 * wait while others are being written (appendBatcher.ts).
 *
 * Argument: a JSON array of appends `{ stream, expected, revision, events: [{ id, type, data, metadata }] }`,
 * `expected` being 'any' | 'no_stream' | 'exists' | 'revision' and, for 'revision', `revision` the expected
 * revision in the port's convention (0-based revision of the stream's last event).
 *
 * Result: one row per append, in order. result_kind = 'appended' | 'duplicate' | 'conflict' | 'deleted';
 * result_revision = the stream's revision after the append ('appended'), the revision of the last already-stored
 * event ('duplicate'), or the actual revision, NULL for no stream ('conflict'); result_commit / result_prepare = the
 * position of the last event appended or found.
 *
 * Steps:
 * 1. Transaction-scoped advisory locks on every stream of the batch, taken in one order (so that batches cannot
 *    deadlock) and BEFORE the transaction gets its xid (these locks take none). A later append to a stream
 *    therefore always has a larger xid than an earlier one, and the global order (transaction_id,
 *    global_position) agrees with every stream's revision order. The statements after the locks see everything
 *    committed before they were granted (READ COMMITTED).
 * 2. A tombstoned stream (streams.revision = TOMBSTONE_REVISION, tombstoneStream.ts) takes no append, not even a
 *    retry: 'deleted', as EventStoreDB answers StreamDeleted before looking at ids or revisions.
 * 3. Idempotency: when every event id of an append is stored in its stream already, nothing is written and the
 *    stored result is returned, whatever the expected revision (a retry of an append that completed). When only
 *    some are, those are dropped and the others are appended as new events, under the expected-revision check.
 * 4. Compare-and-set on the streams row: insert for 'no_stream', conditional update for 'exists' and for a
 *    revision, upsert for 'any'. Nothing is written for the append when it fails.
 * 5. Insert the events with consecutive revisions; global positions are drawn in revision order (PostgreSQL
 *    evaluates the volatile nextval after the ORDER BY).
 */
export function appendBatchFunctionSql(s: EventStoreSchema): string {
  const lockClass = `hashtext(${quoteLiteral(streamLockClass(s.name))})`;
  return `
CREATE OR REPLACE FUNCTION ${s.appendFunction}(p_appends jsonb)
RETURNS TABLE (result_kind text, result_revision bigint, result_commit xid8, result_prepare bigint)
LANGUAGE plpgsql AS $append$
DECLARE
  v_append jsonb;
  v_stream text;
  v_expected text;
  v_events jsonb;
  v_ids uuid[];
  v_stored integer;
  v_count integer;
  v_before bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(${lockClass}, k.key)
     FROM (SELECT DISTINCT hashtext(a->>'stream') AS key FROM jsonb_array_elements(p_appends) AS a ORDER BY 1) AS k;

  FOR v_append IN SELECT x.a FROM jsonb_array_elements(p_appends) WITH ORDINALITY AS x(a, n) ORDER BY x.n LOOP
    v_stream := v_append->>'stream';
    v_expected := v_append->>'expected';
    v_events := v_append->'events';
    result_kind := NULL;
    result_revision := NULL;
    result_commit := NULL;
    result_prepare := NULL;
    v_before := NULL;

    SELECT array_agg((e->>'id')::uuid) INTO v_ids FROM jsonb_array_elements(v_events) AS e;
    IF v_ids IS NULL THEN
      RAISE EXCEPTION 'an append needs at least one event';
    END IF;

    IF EXISTS (SELECT 1 FROM ${s.streams} st WHERE st.stream_id = v_stream AND st.revision = ${TOMBSTONE_REVISION}) THEN
      result_kind := 'deleted';
      RETURN NEXT;
      CONTINUE;
    END IF;

    SELECT count(*) INTO v_stored
      FROM ${s.events} ev
     WHERE ev.stream_id = v_stream AND ev.event_id = ANY (v_ids);

    IF v_stored = cardinality(v_ids) THEN
      SELECT 'duplicate', ev.revision, ev.transaction_id, ev.global_position
        INTO result_kind, result_revision, result_commit, result_prepare
        FROM ${s.events} ev
       WHERE ev.stream_id = v_stream AND ev.event_id = ANY (v_ids)
       ORDER BY ev.revision DESC
       LIMIT 1;
      RETURN NEXT;
      CONTINUE;
    END IF;

    IF v_stored > 0 THEN
      SELECT jsonb_agg(x.e ORDER BY x.n) INTO v_events
        FROM jsonb_array_elements(v_events) WITH ORDINALITY AS x(e, n)
       WHERE NOT EXISTS (SELECT 1 FROM ${s.events} ev WHERE ev.stream_id = v_stream AND ev.event_id = (x.e->>'id')::uuid);
    END IF;
    v_count := jsonb_array_length(v_events);

    IF v_expected = 'no_stream' THEN
      INSERT INTO ${s.streams} AS st (stream_id, revision) VALUES (v_stream, v_count - 1)
        ON CONFLICT (stream_id) DO NOTHING
        RETURNING -1 INTO v_before;
    ELSIF v_expected = 'exists' THEN
      UPDATE ${s.streams} AS st SET revision = st.revision + v_count
       WHERE st.stream_id = v_stream
       RETURNING st.revision - v_count INTO v_before;
    ELSIF v_expected = 'revision' THEN
      UPDATE ${s.streams} AS st SET revision = st.revision + v_count
       WHERE st.stream_id = v_stream AND st.revision = (v_append->>'revision')::bigint
       RETURNING st.revision - v_count INTO v_before;
    ELSIF v_expected = 'any' THEN
      INSERT INTO ${s.streams} AS st (stream_id, revision) VALUES (v_stream, v_count - 1)
        ON CONFLICT (stream_id) DO UPDATE SET revision = st.revision + v_count
        RETURNING st.revision - v_count INTO v_before;
    ELSE
      RAISE EXCEPTION 'unknown expected revision kind %', v_expected;
    END IF;

    IF v_before IS NULL THEN
      result_kind := 'conflict';
      SELECT st.revision INTO result_revision FROM ${s.streams} st WHERE st.stream_id = v_stream;
      RETURN NEXT;
      CONTINUE;
    END IF;

    WITH inserted AS (
      INSERT INTO ${s.events} (global_position, stream_id, revision, event_id, type, data, metadata)
      SELECT nextval('${s.sequence}'), v_stream, v_before + x.n, (x.e->>'id')::uuid, x.e->>'type',
             x.e->'data', COALESCE(x.e->'metadata', '{}'::jsonb)
        FROM jsonb_array_elements(v_events) WITH ORDINALITY AS x(e, n)
       ORDER BY x.n
      RETURNING global_position
    )
    SELECT max(i.global_position) INTO result_prepare FROM inserted i;

    result_kind := 'appended';
    result_revision := v_before + v_count;
    result_commit := pg_current_xact_id();
    RETURN NEXT;
  END LOOP;
END
$append$;`;
}

function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
