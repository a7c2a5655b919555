import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Alert } from '../../components/Alert';
import { queryKeys } from '../../lib/api/queries/queryKeys';
import { sessionsApi } from '../../lib/api/secondFactorApi';
import { useSession } from '../../lib/session/SessionContext';
import { shortDateTime } from './sessionFormat';

/** "New sign-in from Firefox on Linux, 24 Nov 10:02" for each sign-in from a device not used before, until dismissed. */
export function NewSignInNotices() {
  const { user } = useSession();
  const userId = user?._id ?? '';
  const queryClient = useQueryClient();
  const notices = useQuery({ queryKey: queryKeys.signInNotices(userId), queryFn: sessionsApi.notices, enabled: Boolean(userId) });
  if (!notices.data || notices.data.length === 0) return null;
  const dismiss = async (id: string) => {
    await sessionsApi.dismissNotice(id).catch(() => undefined);
    await queryClient.invalidateQueries({ queryKey: queryKeys.signInNotices(userId) });
  };
  return (
    <div role="region" aria-label="New sign-ins">
      {notices.data.map((notice) => (
        <Alert key={notice.id} kind="info" onDismiss={() => void dismiss(notice.id)}>
          New sign-in from {notice.device}, {shortDateTime(notice.createdAt)}
          {notice.address ? ` (${notice.address})` : ''}. Not you? Change your password and sign out that session in{' '}
          <Link to="/account/security">Security</Link>.
        </Alert>
      ))}
    </div>
  );
}
