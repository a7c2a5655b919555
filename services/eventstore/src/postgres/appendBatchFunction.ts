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
 *
 * A batch of at least SET_BASED_MIN_APPENDS appends, each expecting a revision and each on a stream of its own (the
 * bulk writers' appendMany, e.g. the month's interest payments), takes steps 2–5 as one set-based statement instead
 * of the loop: the appends are independent, so doing them together gives the outcomes and events of doing them in
 * order, and the events' global positions follow the appends' order. Smaller batches (the group commit's) keep the
 * loop, whose plan is cheaper for a few appends.
 *
 * Its statements run on generic plans (`plan_cache_mode = force_generic_plan`), planned once per connection. With the
 * default mode the server planned the idempotency check again on every call (it then read `event_id = ANY (v_ids)`:
 * a plan for the ids' actual number looks cheaper than the generic plan's ten, so the cache never settled on the
 * generic one), and that planning was nearly a fifth of the function's time in `bench:projector` (docs/benchmarks.md,
 * "Plans"). Every statement here probes unique indexes by their whole key or reads the call's own JSON, so the generic
 * plans are the custom ones (appendPlans.int.test.ts). The idempotency check probes (stream_id, event_id) once per id
 * for that reason: with `stream_id = $1 AND event_id = ANY ($2)` the generic plan (an array of ten ids assumed, and
 * an average stream of a few events) probed the index by stream_id alone and filtered every event of the stream, so
 * an append to an account's stream cost more the longer its history (0.27 ms a call at 32 in flight in `bench:work`,
 * a quarter of PostgreSQL's time per transfer; docs/benchmarks.md, "The idempotency check read the whole stream").
 */
export const SET_BASED_MIN_APPENDS = 100;

export function appendBatchFunctionSql(s: EventStoreSchema): string {
  const lockClass = `hashtext(${quoteLiteral(streamLockClass(s.name))})`;
  return `
CREATE OR REPLACE FUNCTION ${s.appendFunction}(p_appends jsonb)
RETURNS TABLE (result_kind text, result_revision bigint, result_commit xid8, result_prepare bigint)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $append$
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

  -- The set-based path, for a large batch (appendMany's bulk writers) in which every append expects a revision and
  -- names a stream of its own, so that no append depends on another's outcome: the steps of the loop below for all
  -- appends in one statement, each lookup an index probe. Same outcomes, same events, same global order.
  IF jsonb_array_length(p_appends) >= ${SET_BASED_MIN_APPENDS} AND (
       SELECT bool_and(a->>'expected' = 'revision' AND jsonb_array_length(a->'events') > 0) AND count(DISTINCT a->>'stream') = count(*)
         FROM jsonb_array_elements(p_appends) AS a) THEN
    RETURN QUERY
    WITH input AS (
      SELECT x.n, x.a->>'stream' AS stream_id, (x.a->>'revision')::bigint AS expected, x.a->'events' AS events
        FROM jsonb_array_elements(p_appends) WITH ORDINALITY AS x(a, n)
    ), per AS (
      -- Per append (each lookup an index probe): the stream's revision, how many of its ids are stored, the last.
      SELECT i.n, i.stream_id, i.expected, i.events, jsonb_array_length(i.events) AS total,
             (SELECT st.revision FROM ${s.streams} st WHERE st.stream_id = i.stream_id) AS current_revision,
             coalesce(f.stored, 0) AS stored, f.revision AS last_stored, f.transaction_id AS stored_commit, f.global_position AS stored_prepare
        FROM input i
        LEFT JOIN LATERAL (
          SELECT count(*) OVER () AS stored, ev.revision, ev.transaction_id, ev.global_position
            FROM jsonb_array_elements(i.events) AS e(e)
            JOIN ${s.events} ev ON ev.stream_id = i.stream_id AND ev.event_id = (e.e->>'id')::uuid
           ORDER BY ev.revision DESC LIMIT 1
        ) AS f ON true
    ), upd AS (
      UPDATE ${s.streams} AS st SET revision = st.revision + (p.total - p.stored)
        FROM per p
       WHERE st.stream_id = p.stream_id AND p.stored < p.total AND p.current_revision <> ${TOMBSTONE_REVISION}
         AND st.revision = p.expected
      RETURNING p.n, p.stream_id, p.expected, p.events, p.stored, st.revision AS after_revision
    ), ins AS (
      INSERT INTO ${s.events} (global_position, stream_id, revision, event_id, type, data, metadata)
      SELECT nextval('${s.sequence}'), u.stream_id, u.expected + row_number() OVER (PARTITION BY u.n ORDER BY e.k),
             (e.e->>'id')::uuid, e.e->>'type', e.e->'data', COALESCE(e.e->'metadata', '{}'::jsonb)
        FROM upd u
       CROSS JOIN LATERAL jsonb_array_elements(u.events) WITH ORDINALITY AS e(e, k)
       WHERE u.stored = 0
          OR NOT EXISTS (SELECT 1 FROM ${s.events} ev WHERE ev.stream_id = u.stream_id AND ev.event_id = (e.e->>'id')::uuid)
       ORDER BY u.n, e.k
      RETURNING stream_id, global_position
    ), last_inserted AS (
      SELECT ins.stream_id, max(ins.global_position) AS global_position FROM ins GROUP BY ins.stream_id
    )
    SELECT CASE WHEN p.current_revision = ${TOMBSTONE_REVISION} THEN 'deleted'
                WHEN p.stored = p.total THEN 'duplicate'
                WHEN u.n IS NOT NULL THEN 'appended'
                ELSE 'conflict' END,
           CASE WHEN p.current_revision = ${TOMBSTONE_REVISION} THEN NULL
                WHEN p.stored = p.total THEN p.last_stored
                WHEN u.n IS NOT NULL THEN u.after_revision
                ELSE p.current_revision END,
           CASE WHEN p.current_revision = ${TOMBSTONE_REVISION} THEN NULL
                WHEN p.stored = p.total THEN p.stored_commit
                WHEN u.n IS NOT NULL THEN pg_current_xact_id() END,
           CASE WHEN p.current_revision = ${TOMBSTONE_REVISION} THEN NULL
                WHEN p.stored = p.total THEN p.stored_prepare
                WHEN u.n IS NOT NULL THEN l.global_position END
      FROM per p
      LEFT JOIN upd u ON u.n = p.n
      LEFT JOIN last_inserted l ON l.stream_id = p.stream_id
     ORDER BY p.n;
    RETURN;
  END IF;

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

    -- One probe of (stream_id, event_id) per id: see "Its statements run on generic plans" above for why not
    -- "event_id = ANY (v_ids)".
    SELECT count(*) INTO v_stored
      FROM unnest(v_ids) AS wanted(id)
     CROSS JOIN LATERAL (SELECT 1 FROM ${s.events} ev WHERE ev.stream_id = v_stream AND ev.event_id = wanted.id LIMIT 1) AS found;

    IF v_stored = cardinality(v_ids) THEN
      SELECT 'duplicate', found.revision, found.transaction_id, found.global_position
        INTO result_kind, result_revision, result_commit, result_prepare
        FROM unnest(v_ids) AS wanted(id)
       CROSS JOIN LATERAL (
         SELECT ev.revision, ev.transaction_id, ev.global_position FROM ${s.events} ev
          WHERE ev.stream_id = v_stream AND ev.event_id = wanted.id LIMIT 1
       ) AS found
       ORDER BY found.revision DESC
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
