import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failOnConsoleError } from '../../../components/testing/failOnConsoleError';
import { renderRoutes } from '../../../components/testing/renderWithRouter';
import { SiteHeader } from './SiteHeader';

function renderHeader() {
  return renderRoutes([{ path: '*', element: <SiteHeader /> }], { path: '/' });
}

describe('SiteHeader', () => {
  failOnConsoleError();
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.restoreAllMocks());

  it('has the menus and links of the spec', () => {
    renderHeader();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(within(nav).getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/contact');
    for (const menu of ['Accounts', 'Cards', 'Loans']) expect(within(nav).getByRole('button', { name: menu })).toHaveAttribute('aria-expanded', 'false');
  });

  it('toggles the mobile menu, reporting its state with aria-expanded', async () => {
    renderHeader();
    const user = userEvent.setup();
    const toggle = screen.getByRole('button', { name: 'Menu' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(toggle).toHaveAttribute('aria-controls', nav.id);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(nav).not.toHaveClass('site-nav-open');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(nav).toHaveClass('site-nav-open');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(nav).not.toHaveClass('site-nav-open');
  });

  it('closes the mobile menu when a link is followed', async () => {
    renderHeader();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    await user.click(screen.getByRole('button', { name: 'Loans' }));
    await user.click(screen.getByRole('link', { name: 'Vehicle Loan' }));
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('button', { name: 'Loans' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('opens a menu from the keyboard, moves with the arrows and closes with Escape', async () => {
    renderHeader();
    const user = userEvent.setup();
    const accounts = screen.getByRole('button', { name: 'Accounts' });
    accounts.focus();
    await user.keyboard('{ArrowDown}');
    expect(accounts).toHaveAttribute('aria-expanded', 'true');
    const list = document.getElementById(accounts.getAttribute('aria-controls') ?? '');
    expect(list).toBeVisible();
    expect(within(list!).getByRole('link', { name: 'All Accounts' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(within(list!).getByRole('link', { name: 'Savings Account' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(within(list!).getByRole('link', { name: 'Joint Account' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(within(list!).getByRole('link', { name: 'All Accounts' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(accounts).toHaveAttribute('aria-expanded', 'false');
    expect(accounts).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(accounts).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Enter}');
    expect(accounts).toHaveAttribute('aria-expanded', 'false');
  });

  it('keeps one menu open at a time and closes it when focus leaves', async () => {
    renderHeader();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Accounts' }));
    await user.click(screen.getByRole('button', { name: 'Loans' }));
    expect(screen.getByRole('button', { name: 'Accounts' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('button', { name: 'Loans' })).toHaveAttribute('aria-expanded', 'true');
    act(() => screen.getByRole('link', { name: 'Contact' }).focus());
    expect(screen.getByRole('button', { name: 'Loans' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('points the menu entries at pages that exist', () => {
    renderHeader();
    const hrefs = [...document.querySelectorAll('.nav-dropdown-list a')].map((anchor) => anchor.getAttribute('href'));
    expect(hrefs).toEqual([
      '/#accounts',
      '/account/savings',
      '/account/checking',
      '/account/checking#joint',
      '/cards/credit-card',
      '/#card-personalisation',
      '/#emergency-services',
      '/loan/home-loan',
      '/loan/auto-loan',
    ]);
  });
});
