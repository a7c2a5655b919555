/**
 * One query key per endpoint. Customer data is keyed by the signed-in user's id, so nothing cached for one
 * customer is ever shown to the next person who signs in on the same browser.
 */
export const queryKeys = {
  bank: () => ['bank'] as const,
  currentUser: (userId: string) => ['auth', 'user', userId] as const,
  transactions: (userId: string) => ['transaction', userId] as const,
  recentTransactions: (userId: string) => ['transaction', userId, 'recent'] as const,
  transactionHistory: (userId: string, limit: number) => ['transaction', userId, 'complete', limit] as const,
  beneficiaries: () => ['beneficiaries'] as const,
  beneficiaryList: () => ['beneficiaries', 'list'] as const,
  accountLookup: (accountNumber: string) => ['beneficiaries', 'lookup', accountNumber] as const,
  adminUsers: () => ['admin', 'users'] as const,
  adminUserLists: () => ['admin', 'users', 'list'] as const,
  adminUserList: (search: string) => ['admin', 'users', 'list', search] as const,
  adminUserPage: (search: string, cursor: string) => ['admin', 'users', 'list', search, 'page', cursor] as const,
  adminUser: (id: string) => ['admin', 'users', 'one', id] as const,
  adminUserTransactions: (userId: string) => ['admin', 'transactions', userId] as const,
  adminUserTransactionPage: (userId: string, cursor: string) => ['admin', 'transactions', userId, 'page', cursor] as const,
  contacts: () => ['contacts'] as const,
  file: (url: string) => ['files', url] as const,
  secondFactor: (userId: string) => ['auth', 'second-factor', userId] as const,
  sessions: (userId: string) => ['auth', 'sessions', userId] as const,
  signInNotices: (userId: string) => ['auth', 'sign-in-notices', userId] as const,
  notifications: (userId: string) => ['user', 'notifications', userId] as const,
  adminSecondFactor: (userId: string) => ['admin', 'users', 'second-factor', userId] as const,
};
