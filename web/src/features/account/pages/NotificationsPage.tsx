import { NotificationSettings } from '../../notifications/NotificationSettings';
import { PageTitle } from '../components/PageTitle';

/** /account/notifications: which e-mails the bank sends the customer. */
export function NotificationsPage() {
  return (
    <div className="portal-page">
      <PageTitle lead="Choose the e-mails we send you. Security notices are always sent.">Notifications</PageTitle>
      <NotificationSettings />
    </div>
  );
}
