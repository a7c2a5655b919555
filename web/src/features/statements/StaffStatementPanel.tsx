import { useState } from 'react';
import { StatementDownloads } from './StatementDownloads';
import { StatementPicker } from './StatementPicker';
import { initialChoice, requestOf } from './statementChoice';
import './statements.css';

/**
 * Staff (admin user page, audit customer page): a customer's statement for an account and a month or range, as
 * CSV or PDF, through GET /api/audit/users/:id/statements.
 */
export function StaffStatementPanel({ userId, className, headingLevel = 2 }: { userId: string; className: string; headingLevel?: 2 | 3 }) {
  const [choice, setChoice] = useState(() => initialChoice(new Date()));
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const headingId = `statement-heading-${userId}`;
  return (
    <section className={className} aria-labelledby={headingId}>
      <Heading id={headingId}>Statement</Heading>
      <p>The customer&apos;s statement as they get it: balances from the event log at the period&apos;s bounds.</p>
      <StatementPicker value={choice} onChange={setChoice} />
      <StatementDownloads request={requestOf(choice)} userId={userId} what="statement" />
    </section>
  );
}
