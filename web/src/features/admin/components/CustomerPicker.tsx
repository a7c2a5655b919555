import { useId, useState, type KeyboardEvent } from 'react';
import { Button } from '../../../components/Button';
import { Alert } from '../../../components/Alert';
import { SelectField, TextField } from '../../../components/Field';
import { errorMessage } from '../../../lib/api/apiError';
import { ADMIN_USERS_PAGE, useAdminUserPage } from '../../../lib/api/queries/useAdminUsers';
import type { User } from '../../../lib/api/types';
import { useDebouncedValue } from '../../../lib/hooks/useDebouncedValue';
import { fullName } from './adminLabels';

/** How long typing must pause before the customer search asks the server. */
export const CUSTOMER_SEARCH_DEBOUNCE_MS = 250;

interface Props {
  /** The chosen customer's id ('' for none). */
  readonly value: string;
  readonly onChange: (userId: string) => void;
  /** A customer known beforehand (the one named in the address): always an option, whatever the search shows. */
  readonly known?: User | undefined;
}

/**
 * Choosing one customer among any number: a search over name, e-mail, phone and account number (the server's
 * GET /user/admin?search, once typing pauses) fills the "User" list with the first page of matches; the chosen
 * customer stays an option and is shown in full below, whatever is searched afterwards.
 */
export function CustomerPicker({ value, onChange, known }: Props) {
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), CUSTOMER_SEARCH_DEBOUNCE_MS);
  const matches = useAdminUserPage(search, undefined);
  const [picked, setPicked] = useState<User | null>(null);
  const searchId = useId();
  const found = matches.isPlaceholderData ? [] : (matches.data?.data ?? []);
  const shown = matches.data?.data ?? [];
  const remembered = [known, picked].filter((user): user is User => user !== undefined && user !== null);
  const chosen = [...shown, ...remembered].find((user) => user._id === value);
  const options = [...(chosen && !shown.some((user) => user._id === chosen._id) ? [chosen] : []), ...shown];
  const searching = text.trim() !== search || matches.isFetching;

  const choose = (userId: string) => {
    setPicked(options.find((user) => user._id === userId) ?? null);
    onChange(userId);
  };
  // Enter in the search box searches at once instead of submitting the transaction form.
  const searchNow = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') event.preventDefault();
  };

  return (
    <fieldset className="customer-picker">
      <legend>Customer</legend>
      <TextField
        id={searchId}
        label="Find a customer"
        type="search"
        placeholder="Name, e-mail, phone or account number"
        autoComplete="off"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={searchNow}
      />
      <p className="field-hint customer-picker-status" aria-live="polite">
        {searching ? (
          <>
            <span className="spinner spinner-small" aria-hidden="true" /> Searching customers…
          </>
        ) : matches.isError ? null : search && found.length === 0 ? (
          <span className="customer-picker-empty">No customer matches “{search}”</span>
        ) : search ? (
          `${found.length}${matches.data?.next ? '+' : ''} ${found.length === 1 ? 'customer matches' : 'customers match'}${matches.data?.next ? ` (the first ${ADMIN_USERS_PAGE}: type more to narrow them)` : ''}`
        ) : null}
      </p>
      {matches.isError ? <Alert kind="error">{errorMessage(matches.error)}</Alert> : null}
      <SelectField label="User" required value={value} onChange={(event) => choose(event.target.value)} disabled={matches.isPending} hint={matches.isPending ? 'Loading users…' : undefined}>
        <option value="">Select a user…</option>
        {options.map((user) => (
          <option key={user._id} value={user._id}>
            {fullName(user)} — {user.account.number}
          </option>
        ))}
      </SelectField>
      {chosen ? (
        <div className="customer-picker-chosen" aria-label="Chosen customer" role="group">
          <p>
            <strong>{fullName(chosen)}</strong> · account <span className="admin-mono">{chosen.account.number}</span>
            <br />
            {chosen.email}
            {chosen.phone ? ` · ${chosen.phone}` : ''}
          </p>
          <Button
            variant="secondary"
            onClick={() => {
              onChange('');
              document.getElementById(searchId)?.focus();
            }}
          >
            Choose another customer
          </Button>
        </div>
      ) : null}
    </fieldset>
  );
}
