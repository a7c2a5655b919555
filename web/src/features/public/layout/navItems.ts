/** The header's navigation: plain links and disclosure menus. Every target is a page (or a section of one) that exists. */
export interface NavLinkItem {
  readonly kind: 'link';
  readonly label: string;
  readonly to: string;
}

export interface NavMenuItem {
  readonly kind: 'menu';
  readonly label: string;
  readonly items: readonly { readonly label: string; readonly to: string }[];
}

export type NavItem = NavLinkItem | NavMenuItem;

export const navItems: readonly NavItem[] = [
  { kind: 'link', label: 'Home', to: '/' },
  {
    kind: 'menu',
    label: 'Accounts',
    items: [
      { label: 'All Accounts', to: '/#accounts' },
      { label: 'Savings Account', to: '/account/savings' },
      { label: 'Checking Account', to: '/account/checking' },
      { label: 'Joint Account', to: '/account/checking#joint' },
    ],
  },
  {
    kind: 'menu',
    label: 'Cards',
    items: [
      { label: 'Credit Cards', to: '/cards/credit-card' },
      { label: 'Card Personalisation', to: '/#card-personalisation' },
      { label: 'Emergency Card Services', to: '/#emergency-services' },
    ],
  },
  {
    kind: 'menu',
    label: 'Loans',
    items: [
      { label: 'Home Loan', to: '/loan/home-loan' },
      { label: 'Vehicle Loan', to: '/loan/auto-loan' },
    ],
  },
  { kind: 'link', label: 'Contact', to: '/contact' },
];
