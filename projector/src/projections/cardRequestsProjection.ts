import { defineProjection, streamOwner } from './projection';

/** rm.card_requests: `CardRequested` on a customer stream. */
export const cardRequestsProjection = defineProjection('card_requests', {
  async CardRequested(event, db) {
    const d = event.data;
    const userId = streamOwner(event);
    await db.execute(
      `INSERT INTO ${db.tables.cardRequests} (id, user_id, card_type, requested_at, last_position)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
      [d.requestId, userId, d.cardType, d.requestedAt, event.positionText],
    );
  },
});
