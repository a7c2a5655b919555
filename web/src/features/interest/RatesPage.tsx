import { useState, type FormEvent } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { SelectField, TextField } from '../../components/Field';
import { LoadingBlock } from '../../components/Spinner';
import { ApiError, errorMessage } from '../../lib/api/apiError';
import type { AccountKind } from '../../lib/api/types';
import { AdminPageTitle } from '../admin/components/AdminPageTitle';
import { useRates, useScheduleRate } from './interestApi';
import { ACCOUNT_LABELS, formatPercent, rateInForce, scheduledRates } from './interestFormat';
import type { Rate } from './interestTypes';
import './interest.css';

/** At most 4 decimals, 0–25 (the server checks again: 400 with its message). */
const RATE_TEXT = /^\d{1,2}(\.\d{1,4})?$/;
const DATE_TEXT = /^\d{4}-\d{2}-\d{2}$/;

type Field = 'annualRate' | 'effectiveFrom';

function problemsOf(annualRate: string, effectiveFrom: string): Partial<Record<Field, string>> {
  const problems: Partial<Record<Field, string>> = {};
  const rate = annualRate.trim();
  if (!RATE_TEXT.test(rate) || Number(rate) > 25) problems.annualRate = 'Enter a rate from 0 to 25 % with at most 4 decimals';
  if (!DATE_TEXT.test(effectiveFrom)) problems.effectiveFrom = 'Choose the first business date of the new rate';
  return problems;
}

function RatesTable({ rates }: { rates: readonly Rate[] }) {
  return (
    // Focusable: on a phone the table scrolls sideways, and a keyboard must reach it.
    <div className="table-wrap" tabIndex={0} role="region" aria-label="Rates">
      <table className="table">
        <caption>Rates in force and scheduled changes</caption>
        <thead>
          <tr>
            <th scope="col">Account</th>
            <th scope="col">Rate a year</th>
            <th scope="col">APY</th>
            <th scope="col">From</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {(['savings', 'checking'] as const).flatMap((account) => {
            const inForce = rateInForce(rates, account);
            const rows = [...(inForce ? [{ rate: inForce, status: 'In force' }] : []), ...scheduledRates(rates, account).map((rate) => ({ rate, status: 'Scheduled' }))];
            return rows.map(({ rate, status }) => (
              <tr key={`${account}-${rate.effectiveFrom}`}>
                <th scope="row">{ACCOUNT_LABELS[account]}</th>
                <td>{formatPercent(rate.annualRate)}</td>
                <td>{formatPercent(rate.apy)}</td>
                <td>{rate.effectiveFrom}</td>
                <td>{status}</td>
              </tr>
            ));
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * /admin/rates: each account type's rate in force and the changes scheduled; an admin schedules a change from a
 * business date after the current one (a second change for the same account and date replaces the first).
 */
export function RatesPage() {
  const rates = useRates();
  const schedule = useScheduleRate();
  const [account, setAccount] = useState<AccountKind>('savings');
  const [annualRate, setAnnualRate] = useState('');
  const [effectiveFrom, setEffectiveFrom] = useState('');
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const [done, setDone] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    schedule.reset();
    const found = problemsOf(annualRate, effectiveFrom);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const change = { account, annualRate: annualRate.trim(), effectiveFrom };
    schedule.mutate(change, {
      onSuccess: () => {
        setDone(`${ACCOUNT_LABELS[account]} pays ${formatPercent(Number(change.annualRate))} a year from ${effectiveFrom}.`);
        setAnnualRate('');
      },
      onError: (error) => {
        if (error instanceof ApiError && error.errors.length > 0) {
          const byField: Partial<Record<Field, string>> = {};
          for (const issue of error.errors) if (issue.path === 'annualRate' || issue.path === 'effectiveFrom') byField[issue.path] = issue.message;
          setProblems(byField);
        }
      },
    });
  };

  return (
    <div className="admin-page">
      <AdminPageTitle lead="Interest accrues daily at the rate in force and is paid monthly. Changes take effect from a future business date.">Interest rates</AdminPageTitle>
      <section className="admin-card rates-list" aria-labelledby="rates-heading">
        <h2 id="rates-heading">Rates</h2>
        {rates.isPending ? <LoadingBlock label="Loading the rates…" /> : null}
        {rates.isError ? <Alert kind="error">{errorMessage(rates.error)}</Alert> : null}
        {rates.data ? <RatesTable rates={rates.data} /> : null}
      </section>
      <form className="admin-card admin-form rates-form" onSubmit={submit} noValidate aria-labelledby="schedule-heading">
        <h2 id="schedule-heading">Schedule a rate change</h2>
        <SelectField label="Account" value={account} onChange={(event) => setAccount(event.target.value as AccountKind)}>
          <option value="savings">Savings</option>
          <option value="checking">Checking</option>
        </SelectField>
        <TextField
          label="Rate (% a year)"
          inputMode="decimal"
          value={annualRate}
          onChange={(event) => setAnnualRate(event.target.value)}
          hint="From 0 to 25, up to 4 decimals, e.g. 4.125"
          {...(problems.annualRate ? { error: problems.annualRate } : {})}
        />
        <TextField
          label="Effective from"
          type="date"
          value={effectiveFrom}
          onChange={(event) => setEffectiveFrom(event.target.value)}
          hint="A business date after the current one"
          {...(problems.effectiveFrom ? { error: problems.effectiveFrom } : {})}
        />
        {schedule.isError ? <Alert kind="error">{errorMessage(schedule.error)}</Alert> : null}
        {done ? (
          <Alert kind="success" onDismiss={() => setDone(null)}>
            {done}
          </Alert>
        ) : null}
        <div>
          <Button type="submit" loading={schedule.isPending}>
            Schedule the change
          </Button>
        </div>
      </form>
    </div>
  );
}
