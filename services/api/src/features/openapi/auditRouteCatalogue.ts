import type { Role } from '@bank/domain';
import { interestQueryDoc } from '../interest/interestQuery';
import { statementQueryDoc } from '../statements/statementQuery';
import type { RouteDoc } from './routeDoc';

const STAFF: readonly Role[] = ['auditor', 'admin'];
const CURSOR = 'Opaque cursor: the `next` of the previous page (400 when it is not one of this list)';

/** The auditors' read-only routes, /audit/* (docs/audit.md): every one answers 401 signed out and 403 to a customer. */
export const auditRouteCatalogue: readonly RouteDoc[] = [
  {
    method: 'get',
    path: '/audit/users',
    summary: 'Find customers by name, e-mail or account number',
    access: STAFF,
    query: { search: 'Text to look for (no search: an empty list)', limit: 'Page size', cursor: CURSOR },
    success: { status: 200, description: '{data: [customer], next}' },
    errors: [400],
  },
  {
    method: 'get',
    path: '/audit/users/:id/events',
    summary: 'Every event of the customer, oldest first: type, data (secrets masked), actor, time, position',
    access: STAFF,
    query: { format: 'json (default) or csv', limit: 'Page size (without limit and cursor: all of them)', cursor: CURSOR },
    success: { status: 200, description: '{data: [event], next}, or a CSV file' },
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/audit/users/:id/balances',
    summary: 'Balances replayed from the events as they stood at an instant, with the newest transactions',
    access: STAFF,
    query: { at: 'ISO instant (default: now)', limit: 'How many of the newest transactions (1–1000)' },
    success: { status: 200, description: '{data: {userId, at, savings, checking, transactions, transactionsTotal, events}}' },
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/audit/users/:id/statements',
    summary: "A customer's statement, as GET /statements gives the customer theirs",
    access: STAFF,
    query: statementQueryDoc,
    success: { status: 200, description: 'The statement: {data: Statement}, a CSV or a PDF file', data: { shape: 'Statement' } },
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/audit/users/:id/interest',
    summary: "A customer's interest, as GET /interest gives the customer theirs (format=pdf: the year's interest statement)",
    access: STAFF,
    query: interestQueryDoc,
    success: { status: 200, description: 'The interest (or application/pdf)', data: { shape: 'Interest' } },
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/audit/log',
    summary: 'Staff actions, newest first',
    access: STAFF,
    query: { actor: 'Staff id or e-mail', type: 'Event type', from: 'ISO instant', to: 'ISO instant', offset: 'Rows to skip', limit: 'Page size', cursor: CURSOR },
    success: { status: 200, description: '{data: [entry], next}' },
    errors: [400],
  },
  {
    method: 'get',
    path: '/audit/verify',
    summary: 'Replay the whole log and compare every balance with the read model',
    access: STAFF,
    success: { status: 200, description: '{data: {ok, checked, mismatches}}' },
  },
  {
    method: 'get',
    path: '/audit/ledger/accounts',
    summary: 'The chart of accounts with the totals of each',
    access: STAFF,
    success: { status: 200, description: '{data: [account]}', data: { shape: 'LedgerAccount', list: true } },
  },
  {
    method: 'get',
    path: '/audit/ledger/trial-balance',
    summary: 'The trial balance now, or replayed from the log as it stood at an instant',
    access: STAFF,
    query: { at: 'ISO instant, not in the future (default: now)', format: 'json (default), csv or pdf' },
    success: { status: 200, description: '{data: TrialBalance}, a CSV or a PDF file', data: { shape: 'TrialBalance' } },
    errors: [400],
  },
  {
    method: 'get',
    path: '/audit/ledger/accounts/:key/entries',
    summary: 'The postings of one ledger account, oldest first',
    access: STAFF,
    query: { from: 'ISO instant', to: 'ISO instant', customerId: 'Only this customer', limit: 'Page size', cursor: CURSOR, format: 'json (default) or csv' },
    success: { status: 200, description: '{data: [entry], next}, or a CSV file', data: { shape: 'LedgerEntry', list: true, paged: true } },
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/audit/ledger/reconciliation',
    summary: 'Each control account against its customers, each clearing account against its open items',
    access: STAFF,
    success: { status: 200, description: '{data: {ok, controls, clearing}}', data: { shape: 'Reconciliation' } },
  },
  {
    method: 'get',
    path: '/audit/ledger/days',
    summary: 'The day closes, newest first',
    access: STAFF,
    query: { limit: 'Page size', cursor: CURSOR },
    success: { status: 200, description: '{data: [day], next}', data: { shape: 'LedgerDay', list: true, paged: true } },
    errors: [400],
  },
];
