import { AuditLayout, RequireAuditor } from './AuditLayout';

/** The audit area's route element: the guard around the frame, loaded together on first use. */
export function AuditArea() {
  return (
    <RequireAuditor>
      <AuditLayout />
    </RequireAuditor>
  );
}
