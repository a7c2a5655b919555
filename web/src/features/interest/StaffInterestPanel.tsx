import { InterestOverview } from './InterestOverview';

/** Staff (the audit customer page): a customer's interest as they see it, through GET /audit/users/:id/interest. */
export function StaffInterestPanel({ userId, className }: { userId: string; className: string }) {
  const headingId = `interest-heading-${userId}`;
  return (
    <section className={className} aria-labelledby={headingId}>
      <h2 id={headingId}>Interest</h2>
      <InterestOverview userId={userId} />
    </section>
  );
}
