import { describe, expect, it } from 'vitest';
import { fromState, postSignInPath } from './postSignInPath';

describe('postSignInPath', () => {
  it('sends awaiting customers to verification whatever the origin', () => {
    expect(postSignInPath({ verificationStatus: 'awaiting' })).toBe('/account-verification');
    expect(postSignInPath({ verificationStatus: 'awaiting' }, '/account/transfer')).toBe('/account-verification');
  });

  it('sends every other customer to /account/home, wherever they came from', () => {
    expect(postSignInPath({ verificationStatus: 'verified' })).toBe('/account/home');
    expect(postSignInPath({ verificationStatus: 'pending' }, '/account/transactions?page=2')).toBe('/account/home');
    expect(postSignInPath({ verificationStatus: 'failed' }, '/signin')).toBe('/account/home');
    expect(postSignInPath({ verificationStatus: 'verified' }, '/account-verification')).toBe('/account/home');
  });

  it('never sends staff (registered as awaiting) to verification: back where they came from, or their own area', () => {
    expect(postSignInPath({ verificationStatus: 'awaiting', role: 'auditor' }, '/audit/log')).toBe('/audit/log');
    expect(postSignInPath({ verificationStatus: 'awaiting', role: 'auditor' })).toBe('/audit');
    expect(postSignInPath({ verificationStatus: 'awaiting', role: 'admin', isAdmin: true }, '/signin')).toBe('/admin/dashboard');
    expect(postSignInPath({ verificationStatus: 'verified', role: 'admin', isAdmin: true }, '/admin/users')).toBe('/admin/users');
    expect(postSignInPath({ verificationStatus: 'verified', role: 'auditor' }, '/admin/users')).toBe('/audit');
    expect(postSignInPath({ verificationStatus: 'verified', role: 'admin', isAdmin: true }, '/account/home')).toBe('/admin/dashboard');
    expect(postSignInPath({ verificationStatus: 'awaiting', role: 'customer' })).toBe('/account-verification');
  });
});

describe('fromState', () => {
  it('reads a path or a location from the router state', () => {
    expect(fromState({ from: '/account/cards' })).toBe('/account/cards');
    expect(fromState({ from: { pathname: '/account/info', search: '?tab=1', hash: '#top' } })).toBe('/account/info?tab=1#top');
  });

  it('ignores anything that is not an in-app path', () => {
    expect(fromState(null)).toBeUndefined();
    expect(fromState({})).toBeUndefined();
    expect(fromState({ from: 'https://evil.example/' })).toBeUndefined();
    expect(fromState({ from: '//evil.example/' })).toBeUndefined();
    expect(fromState({ from: 42 })).toBeUndefined();
  });
});
