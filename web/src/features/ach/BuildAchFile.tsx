import { Link } from 'react-router';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { formatMoney } from '../../components/money';
import { errorMessage } from '../../lib/api/apiError';
import { useBuildAchFile } from './achApi';
import { achFilePath, countOf } from './achFormat';

/**
 * Admins: "Build file now" (POST /admin/ach/files) puts every waiting external transfer into a file at once, without
 * waiting for the next cut-off. A file built says what it holds and links to it; none waiting is a calm notice.
 */
export function BuildAchFile() {
  const build = useBuildAchFile();
  const file = build.data?.file;
  return (
    <div className="ach-build">
      <Button loading={build.isPending} onClick={() => build.mutate()}>
        Build file now
      </Button>
      {build.isError ? <Alert kind="error">{errorMessage(build.error)}</Alert> : null}
      {build.isSuccess && file ? (
        <Alert kind="success">
          Built a file of {countOf(file.entryCount, 'entry', 'entries')} effective {file.effectiveDate} (debits {formatMoney(file.totalDebit)}, credits{' '}
          {formatMoney(file.totalCredit)}). <Link to={achFilePath(file.id)}>Open the file</Link>
        </Alert>
      ) : null}
      {build.isSuccess && !file ? <Alert kind="info">{build.data.message ?? 'No entries waiting'}</Alert> : null}
    </div>
  );
}
