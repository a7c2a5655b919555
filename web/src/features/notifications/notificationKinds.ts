import type { NotificationKind } from '../../lib/api/types';

/** How each kind of e-mail notice is named and explained on the Notifications page. */
export const notificationLabels: Record<NotificationKind, { label: string; description: string }> = {
  moneyReceived: { label: 'Money received', description: 'When another customer sends you money' },
  transferReturned: { label: 'Transfer returned', description: 'When a transfer to another bank comes back' },
  standingOrderFailed: { label: 'Standing order problems', description: 'When a standing order fails or is suspended' },
  interestPaid: { label: 'Interest paid', description: 'When interest is paid into your savings' },
  statementReady: { label: 'Statement ready', description: 'When your monthly statement is ready' },
  newDevice: { label: 'Sign-in from a new device', description: 'When someone signs in to your account from a device not used before' },
  passwordChanged: { label: 'Password changed', description: 'When your password is changed or reset' },
  secondFactorChanged: { label: 'Two-step sign-in changed', description: 'When two-step sign-in is turned on or off' },
};

/** The label of a kind, also for a kind this page does not know yet (the server may add some). */
export function notificationLabel(kind: string): { label: string; description: string } {
  return (notificationLabels as Record<string, { label: string; description: string }>)[kind] ?? { label: kind, description: '' };
}
