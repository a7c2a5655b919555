import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { EmptyState } from '../../../components/EmptyState';
import { TextField } from '../../../components/Field';
import { QueryPager } from '../../../components/Pager';
import { LoadingBlock } from '../../../components/Spinner';
import { useCursorTrail } from '../../../lib/api/paging';
import { errorMessage } from '../../../lib/api/apiError';
import { useAddBeneficiary } from '../../../lib/api/queries/useAddBeneficiary';
import { useBeneficiaries } from '../../../lib/api/queries/useBeneficiaries';
import { useDeleteBeneficiary } from '../../../lib/api/queries/useDeleteBeneficiary';
import type { Beneficiary } from '../../../lib/api/types';
import { AdminPageTitle } from '../components/AdminPageTitle';
import { confirmedDelete, type ActionResult } from '../components/confirmedDelete';

export const DELETE_BENEFICIARY_QUESTION = 'Are you sure you want to delete this beneficiary?';
const empty = { name: '', accountNumber: '', bankName: '' };

/** /admin/beneficiaries: the payee directory; add and delete. */
export function AdminBeneficiariesPage() {
  const trail = useCursorTrail();
  const beneficiaries = useBeneficiaries(trail.cursor);
  const payees = beneficiaries.data?.data;
  const add = useAddBeneficiary();
  const remove = useDeleteBeneficiary();
  const [values, setValues] = useState(empty);
  const [result, setResult] = useState<ActionResult>(null);
  const set = (field: keyof typeof empty) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [field]: event.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!values.name.trim() || !values.accountNumber.trim()) {
      setResult({ kind: 'error', message: 'All fields are required' });
      return;
    }
    setResult(null);
    add.mutate(
      { name: values.name.trim(), accountNumber: values.accountNumber.trim(), ...(values.bankName.trim() ? { bankName: values.bankName.trim() } : {}) },
      {
        onSuccess: () => {
          setResult({ kind: 'success', message: 'Beneficiary added successfully' });
          setValues(empty);
        },
        onError: (error) => setResult({ kind: 'error', message: errorMessage(error) }),
      },
    );
  };

  // Spec §5: a native confirmation before the beneficiary is deleted.
  const deleteById = confirmedDelete(remove, DELETE_BENEFICIARY_QUESTION, 'Beneficiary deleted', setResult);
  const deleteBeneficiary = (beneficiary: Beneficiary) => deleteById(beneficiary._id);

  return (
    <div className="admin-page">
      <AdminPageTitle lead="Payees customers can find by account number when they transfer.">Beneficiaries</AdminPageTitle>
      {result ? (
        <Alert kind={result.kind} onDismiss={() => setResult(null)}>
          {result.message}
        </Alert>
      ) : null}
      <form className="admin-card admin-form" onSubmit={submit} noValidate aria-labelledby="add-beneficiary-heading">
        <h2 id="add-beneficiary-heading">Add a beneficiary</h2>
        <div className="admin-form-grid admin-form-grid-3">
          <TextField label="Name" required value={values.name} onChange={set('name')} />
          <TextField label="Account number" inputMode="numeric" required value={values.accountNumber} onChange={set('accountNumber')} />
          <TextField label="Bank name" value={values.bankName} onChange={set('bankName')} hint="Optional" />
        </div>
        <Button type="submit" loading={add.isPending}>
          Add beneficiary
        </Button>
      </form>
      <section className="admin-card" aria-labelledby="directory-heading">
        <h2 id="directory-heading">Directory</h2>
        {beneficiaries.isPending ? <LoadingBlock label="Loading beneficiaries…" /> : null}
        {beneficiaries.isError ? <Alert kind="error">{errorMessage(beneficiaries.error)}</Alert> : null}
        {payees?.length === 0 && !trail.hasPrevious ? <EmptyState title="No beneficiaries yet." /> : null}
        {payees && payees.length > 0 ? (
          <div className="table-wrap">
            <table className="table admin-table">
              <caption className="visually-hidden">Beneficiaries</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Account number</th>
                  <th scope="col">Bank</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {payees.map((beneficiary) => (
                  <tr key={beneficiary._id}>
                    <td>{beneficiary.name}</td>
                    <td className="admin-mono">{beneficiary.accountNumber}</td>
                    <td>{beneficiary.bankName ?? '—'}</td>
                    <td>
                      <Button
                        variant="danger"
                        className="admin-small-btn"
                        onClick={() => deleteBeneficiary(beneficiary)}
                        loading={remove.isPending && remove.variables === beneficiary._id}
                        disabled={remove.isPending}
                        aria-label={`Delete ${beneficiary.name}`}
                      >
                        Delete
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <QueryPager label="Beneficiaries" trail={trail} query={beneficiaries} />
      </section>
    </div>
  );
}
