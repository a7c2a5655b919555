import { useEffect } from 'react';
import { SecondFactorSettings } from '../secondFactor/SecondFactorSettings';
import { SessionsList } from '../secondFactor/SessionsList';

/** /audit/security: the auditor's own two-step sign-in (required) and sessions. */
export function AuditSecurityPage() {
  useEffect(() => {
    document.title = 'Security · Audit · Summit Bank';
  }, []);
  return (
    <section className="audit-page" aria-labelledby="audit-security-title">
      <h1 id="audit-security-title">Security</h1>
      <SecondFactorSettings />
      <SessionsList />
    </section>
  );
}
