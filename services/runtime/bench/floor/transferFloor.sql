-- The transfer's floor (issue 33): every write one internal $1 transfer makes, done by PostgreSQL alone, in ONE
-- transaction, with no application in the way. Run by `npm run bench` (services/runtime/bench/lib/transferFloor.ts)
-- with pgbench on a copy of the bench's own database after the HTTP phases:
--
--   pgbench -n -M prepared -f transferFloor.sql -D customers=N -D share=S -c 32 -j 2 -T SECONDS
--
-- Writes, as the bank writes them:
--   * the six events of an internal transfer, appended through the event store's own function
--     (eventstore.append_batch, one call for the three streams): the payer's AccountDebited (pending, with the
--     intent) and TransactionStatusChanged, the payee's AccountCredited, and the transfer's TransferRequested,
--     TransferDebited and TransferCredited, with the bank's payloads and metadata (ids, actor, correlation and
--     causation, chain key id, previous hash and hash: a SHA-256 of the event's data, 64 hex characters);
--   * the read models the projector writes for them: both balances (rm.accounts), both transaction rows
--     (rm.transactions), the transfer row (rm.transfers), the two journal entries (four rm.journal_lines), both
--     interest day balances (rm.interest_day_balances);
--   * the rows every transfer shares (the projector's checkpoint, the transfer process's checkpoint, the ledger
--     accounts' totals) once every `share` transfers, with `share` transfers' worth: the bank writes them once per
--     batch, never once per transfer (a row every transaction updated would make the floor the latency of one hot
--     row's commit, not the cost of the writes).
-- The hot path's reads of the bank (stream tails, the recipient) are not in it: the floor is the writes.
\set p random(1, :customers)
\set q random(1, :customers - 1)
\set q case when :q >= :p then :q + 1 else :q end
\set batch random(1, :share)
BEGIN;
SELECT a.user_id AS payer, b.user_id AS payee, b.account_number AS payee_number, b.name AS payee_name,
       (SELECT checking_cents - 100 FROM rm.accounts WHERE user_id = a.user_id) AS payer_after,
       (SELECT checking_cents + 100 FROM rm.accounts WHERE user_id = b.user_id) AS payee_after,
       gen_random_uuid() AS transfer, gen_random_uuid() AS debit_tx, gen_random_uuid() AS credit_tx, gen_random_uuid() AS refund_tx,
       gen_random_uuid() AS request_id, (to_jsonb(date_trunc('milliseconds', clock_timestamp() AT TIME ZONE 'UTC')) #>> '{}') || 'Z' AS at,
       to_char(current_date, 'YYYY-MM-DD') AS day
  FROM floor.customers a, floor.customers b WHERE a.n = :p AND b.n = :q \gset
WITH d AS (
  SELECT jsonb_build_object(
           'intent', jsonb_build_object('payeeId', :payee::text, 'bankName', 'Summit Bank', 'internal', true, 'accountType', 'checking',
             'description', 'bench', 'requestedAt', :at::text, 'accountNumber', :payee_number::text, 'recipientName', :payee_name::text,
             'routingNumber', '102000021', 'creditTransactionId', :credit_tx::text, 'refundTransactionId', :refund_tx::text),
           'status', 'pending', 'account', 'checking', 'direction', 'debit', 'occurredAt', :at::text, 'transferId', :transfer::text,
           'amountCents', 100, 'description', 'bench', 'businessDate', :day::text, 'transactionId', :debit_tx::text,
           'balanceAfterCents', (:payer_after::text)::bigint) AS debit,
         jsonb_build_object('status', 'completed', 'occurredAt', :at::text, 'transferId', :transfer::text, 'transactionId', :debit_tx::text,
           'previousStatus', 'pending') AS completed,
         jsonb_build_object('status', 'completed', 'account', 'checking', 'direction', 'credit', 'occurredAt', :at::text,
           'transferId', :transfer::text, 'amountCents', 100, 'description', 'bench', 'businessDate', :day::text,
           'transactionId', :credit_tx::text, 'balanceAfterCents', (:payee_after::text)::bigint) AS credit,
         jsonb_build_object('from', 'checking', 'payeeId', :payee::text, 'payerId', :payer::text, 'bankName', 'Summit Bank', 'internal', true,
           'transferId', :transfer::text, 'accountType', 'checking', 'amountCents', 100, 'description', 'bench', 'requestedAt', :at::text,
           'accountNumber', :payee_number::text, 'recipientName', :payee_name::text, 'routingNumber', '102000021',
           'debitTransactionId', :debit_tx::text, 'creditTransactionId', :credit_tx::text, 'refundTransactionId', :refund_tx::text) AS requested,
         jsonb_build_object('account', 'checking', 'occurredAt', :at::text, 'transferId', :transfer::text, 'amountCents', 100,
           'transactionId', :debit_tx::text) AS debited,
         jsonb_build_object('account', 'checking', 'payeeId', :payee::text, 'occurredAt', :at::text, 'transferId', :transfer::text,
           'amountCents', 100, 'transactionId', :credit_tx::text) AS credited
), e AS (
  SELECT d.*, encode(sha256(convert_to(d.debit::text, 'UTF8')), 'hex') AS h1, encode(sha256(convert_to(d.completed::text, 'UTF8')), 'hex') AS h2,
         encode(sha256(convert_to(d.credit::text, 'UTF8')), 'hex') AS h3, encode(sha256(convert_to(d.requested::text, 'UTF8')), 'hex') AS h4,
         encode(sha256(convert_to(d.debited::text, 'UTF8')), 'hex') AS h5, encode(sha256(convert_to(d.credited::text, 'UTF8')), 'hex') AS h6,
         gen_random_uuid()::text AS debit_event
    FROM d
)
SELECT max(r.result_prepare) FILTER (WHERE r.n = 1) AS payer_position, max(r.result_prepare) FILTER (WHERE r.n = 2) AS payee_position,
       max(r.result_commit::text) AS xid, count(*) FILTER (WHERE r.result_kind = 'appended') AS appended
  FROM e, eventstore.append_batch(jsonb_build_array(
    jsonb_build_object('stream', 'account-' || :payer::text, 'expected', 'any', 'events', jsonb_build_array(
      jsonb_build_object('id', e.debit_event, 'type', 'AccountDebited', 'data', e.debit, 'metadata', jsonb_build_object(
        'hash', e.h1, 'actorId', :payer::text, 'prevHash', e.h6, 'actorRole', 'customer', 'requestId', :request_id::text, 'chainKeyId', 'k1',
        'occurredAt', :at::text, 'correlationId', :transfer::text, 'schemaVersion', 1)),
      jsonb_build_object('id', gen_random_uuid(), 'type', 'TransactionStatusChanged', 'data', e.completed, 'metadata', jsonb_build_object(
        'hash', e.h2, 'prevHash', e.h1, 'actorRole', 'system', 'chainKeyId', 'k1', 'occurredAt', :at::text, 'causationId', e.debit_event,
        'correlationId', :transfer::text, 'schemaVersion', 1)))),
    jsonb_build_object('stream', 'account-' || :payee::text, 'expected', 'any', 'events', jsonb_build_array(
      jsonb_build_object('id', gen_random_uuid(), 'type', 'AccountCredited', 'data', e.credit, 'metadata', jsonb_build_object(
        'hash', e.h3, 'prevHash', e.h2, 'actorRole', 'system', 'chainKeyId', 'k1', 'occurredAt', :at::text, 'causationId', e.debit_event,
        'correlationId', :transfer::text, 'schemaVersion', 1)))),
    jsonb_build_object('stream', 'transfer-' || :transfer::text, 'expected', 'no_stream', 'events', jsonb_build_array(
      jsonb_build_object('id', gen_random_uuid(), 'type', 'TransferRequested', 'data', e.requested, 'metadata', jsonb_build_object(
        'hash', e.h4, 'prevHash', null, 'actorRole', 'system', 'chainKeyId', 'k1', 'occurredAt', :at::text, 'causationId', e.debit_event,
        'correlationId', :transfer::text, 'schemaVersion', 1)),
      jsonb_build_object('id', gen_random_uuid(), 'type', 'TransferDebited', 'data', e.debited, 'metadata', jsonb_build_object(
        'hash', e.h5, 'prevHash', e.h4, 'actorRole', 'system', 'chainKeyId', 'k1', 'occurredAt', :at::text, 'causationId', e.debit_event,
        'correlationId', :transfer::text, 'schemaVersion', 1)),
      jsonb_build_object('id', gen_random_uuid(), 'type', 'TransferCredited', 'data', e.credited, 'metadata', jsonb_build_object(
        'hash', e.h6, 'prevHash', e.h5, 'actorRole', 'system', 'chainKeyId', 'k1', 'occurredAt', :at::text, 'causationId', e.debit_event,
        'correlationId', :transfer::text, 'schemaVersion', 1))))
  )) WITH ORDINALITY AS r(result_kind, result_revision, result_commit, result_prepare, n) \gset
WITH pos AS (
  SELECT lpad(:xid::text, 20, '0') || ':' || lpad(:payer_position::text, 20, '0') AS debit_at,
         lpad(:xid::text, 20, '0') || ':' || lpad(:payee_position::text, 20, '0') AS credit_at,
         (:at::text)::timestamptz AS at, (:day::text)::date AS day
), balances AS (
  UPDATE rm.accounts AS a SET checking_cents = a.checking_cents + CASE WHEN a.user_id = (:payer::text)::uuid THEN -100 ELSE 100 END,
         updated_at = pos.at, last_position = CASE WHEN a.user_id = (:payer::text)::uuid THEN pos.debit_at ELSE pos.credit_at END
    FROM pos WHERE a.user_id IN ((:payer::text)::uuid, (:payee::text)::uuid)
  RETURNING a.user_id, a.checking_cents
), transactions AS (
  INSERT INTO rm.transactions (id, user_id, account, direction, amount_cents, description, date, status, balance_after_cents, transfer_id,
                               kind, event_type, created_at, created_position, last_position)
  SELECT (:debit_tx::text)::uuid, (:payer::text)::uuid, 'checking', 'debit', 100, 'bench', pos.at, 'completed', (:payer_after::text)::bigint,
         (:transfer::text)::uuid, 'transfer', 'AccountDebited', pos.at, pos.debit_at, pos.credit_at FROM pos
  UNION ALL
  SELECT (:credit_tx::text)::uuid, (:payee::text)::uuid, 'checking', 'credit', 100, 'bench', pos.at, 'completed', (:payee_after::text)::bigint,
         (:transfer::text)::uuid, 'transfer', 'AccountCredited', pos.at, pos.credit_at, pos.credit_at FROM pos
), transfer AS (
  INSERT INTO rm.transfers (id, payer_id, payee_id, from_account, to_account, amount_cents, account_number, bank_name, routing_number,
                            recipient_name, description, internal, status, debit_transaction_id, credit_transaction_id,
                            refund_transaction_id, requested_at, updated_at, last_position)
  SELECT (:transfer::text)::uuid, (:payer::text)::uuid, (:payee::text)::uuid, 'checking', 'checking', 100, :payee_number::text, 'Summit Bank', '102000021',
         :payee_name::text, 'bench', true, 'credited', (:debit_tx::text)::uuid, (:credit_tx::text)::uuid, (:refund_tx::text)::uuid, pos.at, pos.at, pos.credit_at
    FROM pos
), journal AS (
  INSERT INTO rm.journal_lines (position, line_no, event_id, recorded_at, business_date, account_key, side, amount_cents, customer_id,
                                account_type, transfer_id, actor_id, description)
  SELECT CASE WHEN l.entry = 1 THEN pos.debit_at ELSE pos.credit_at END, l.line_no, gen_random_uuid(), pos.at, pos.day, l.account_key,
         l.side, 100, CASE WHEN l.entry = 1 THEN (:payer::text)::uuid ELSE (:payee::text)::uuid END, l.account_type, (:transfer::text)::uuid,
         (:payer::text)::uuid, 'bench'
    FROM pos, (VALUES (1, 0::smallint, 'customer-checking', 'debit', 'checking'), (1, 1::smallint, 'transfers-in-transit', 'credit', NULL),
                      (2, 0::smallint, 'transfers-in-transit', 'debit', NULL), (2, 1::smallint, 'customer-checking', 'credit', 'checking'))
         AS l(entry, line_no, account_key, side, account_type)
), interest AS (
  INSERT INTO rm.interest_day_balances AS d (user_id, account, business_date, balance_cents, position)
  SELECT b.user_id, 'checking', pos.day, b.checking_cents, CASE WHEN b.user_id = (:payer::text)::uuid THEN pos.debit_at ELSE pos.credit_at END
    FROM balances b, pos
  ON CONFLICT (user_id, account, business_date) DO UPDATE SET balance_cents = EXCLUDED.balance_cents, position = EXCLUDED.position
   WHERE d.position < EXCLUDED.position
)
SELECT count(*) AS balances_moved FROM balances;
\if :batch = 1
INSERT INTO rm.ledger_accounts AS a (key, debits_cents, credits_cents)
  VALUES ('customer-checking', 100 * :share::int, 100 * :share::int), ('transfers-in-transit', 100 * :share::int, 100 * :share::int)
  ON CONFLICT (key) DO UPDATE SET debits_cents = a.debits_cents + EXCLUDED.debits_cents, credits_cents = a.credits_cents + EXCLUDED.credits_cents;
UPDATE rm.checkpoint SET position = lpad(:xid::text, 20, '0') || ':' || lpad(:payee_position::text, 20, '0'), events_applied = events_applied + 6 * :share::int,
       last_event_created_at = (:at::text)::timestamptz, updated_at = now()
 WHERE name = 'main';
INSERT INTO process.checkpoints AS c (name, position) VALUES ('transfers', lpad(:xid::text, 20, '0') || ':' || lpad(:payer_position::text, 20, '0'))
  ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, updated_at = now();
\endif
COMMIT;
