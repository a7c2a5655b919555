import type { ReactNode } from 'react';
import type { User } from '../lib/api/types';
import { formatDate } from './money';

export interface Detail {
  readonly label: string;
  readonly value: ReactNode;
  readonly valueClassName?: string;
}

/** A list of labelled values (`dl`): each detail a `dt` and its `dd`. */
export function DetailList({ className, details }: { className: string; details: readonly Detail[] }) {
  return (
    <dl className={className}>
      {details.map((detail) => (
        <div key={detail.label}>
          <dt>{detail.label}</dt>
          <dd className={detail.valueClassName}>{detail.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A customer's personal details as the portal and the admin area show them, in one order. */
export function personalDetails(user: User, options: { emailClassName?: string } = {}): Detail[] {
  return [
    { label: 'First name', value: user.firstName },
    { label: 'Last name', value: user.lastName },
    { label: 'E-mail', value: user.email, ...(options.emailClassName ? { valueClassName: options.emailClassName } : {}) },
    { label: 'Phone', value: user.phone },
    { label: 'Address', value: user.location.address },
    { label: 'State', value: user.location.state },
    { label: 'Customer since', value: formatDate(user.createdAt) },
  ];
}
