import { Alert } from '../../components/Alert';
import { isAdminUser } from '../../lib/session/guards';
import { useSession } from '../../lib/session/SessionContext';
import { AchUploadForm } from './AchUploadForm';

/** /audit/ach/upload (admins): apply a returns file or an incoming file that did not come through the SFTP inbox. */
export function AchUploadPage() {
  const { user } = useSession();
  if (!isAdminUser(user)) return <Alert kind="info">Only admins can upload ACH files.</Alert>;
  return (
    <div className="ach-uploads">
      <AchUploadForm kind="returns" />
      <AchUploadForm kind="incoming" />
    </div>
  );
}
