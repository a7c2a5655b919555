import { defineProjection, streamOwner } from './projection';

/** rm.card_requests: `CardRequested` on a customer stream. */
export const cardRequestsProjection = defineProjection({
  name: 'card_requests',
  tables: { card_requests: {} },
  handlers: {
    CardRequested(event, db) {
      const d = event.data;
      db.insert('card_requests', { id: d.requestId, user_id: streamOwner(event), card_type: d.cardType, requested_at: d.requestedAt });
    },
  },
});
