import type { ReactNode } from 'react';
import type { User } from '../../../lib/api/types';
import { Avatar } from './Avatar';
import { VerificationBadge } from './VerificationBadge';

/** The customer's picture, name and verification status at the top of the profile pages; `children` below the name. */
export function ProfileSummary({ user, children }: { user: User; children?: ReactNode }) {
  return (
    <section className="portal-card profile-summary">
      <Avatar user={user} size={72} />
      <div>
        <h2>
          {user.firstName} {user.lastName}
        </h2>
        {children}
        <VerificationBadge status={user.verificationStatus} />
      </div>
    </section>
  );
}
