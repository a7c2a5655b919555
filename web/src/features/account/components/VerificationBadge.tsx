import type { VerificationStatus } from '../../../lib/api/types';

const labels: Record<VerificationStatus, string> = {
  awaiting: 'Awaiting verification',
  pending: 'Verification pending',
  verified: 'Verified',
  failed: 'Verification failed',
};

export function VerificationBadge({ status }: { status: VerificationStatus }) {
  return <span className={`status-badge verification-${status}`}>{labels[status]}</span>;
}
