import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api } from '../api/apiClient';
import type { Envelope, SecondFactorChallenge, SignInAnswer, User } from '../api/types';
import { clearSession, readStoredUser, readToken, storeSession, storeUser } from './sessionStorage';

/** What the password step of sign-in led to: signed in, or a second step (a code, or enrolment for staff). */
export type SignInResult =
  | { readonly kind: 'signedIn'; readonly user: User }
  | { readonly kind: 'secondFactor'; readonly mode: SecondFactorChallenge['secondFactor']; readonly challenge: string };

export interface Session {
  readonly token: string | null;
  readonly user: User | null;
  /** A token is stored: requests carry it. The user may still be loading (`user` null) when only the token was kept. */
  readonly isAuthenticated: boolean;
  /** Signs in; stores token and user; resolves with the user. Rejects with the server's ApiError (and when a second step is due). */
  signIn(email: string, password: string): Promise<User>;
  /**
   * The password step of a sign-in that may need a second factor: signed in (token and user stored), or the
   * challenge of the second step. Rejects with the server's ApiError.
   */
  beginSignIn(email: string, password: string): Promise<SignInResult>;
  /** Stores the session of a completed second step (POST /auth/second-factor's answer). */
  finishSignIn(answer: SignInAnswer): User;
  /**
   * Calls the server's sign-out (best effort), then clears token and user. `exitPath`: where the guards send the
   * signed-out visitor (the page the logout button goes to), instead of /signin.
   */
  signOut(exitPath?: string): Promise<void>;
  /** Where a guard sends a visitor without a session: the last sign-out's exit path, else null (/signin). */
  readonly exitPath: string | null;
  /** Reloads the current user from the server and stores it. */
  refreshUser(): Promise<User>;
  /** Replaces the stored user (after a profile update). */
  setUser(user: User): void;
  /** Forgets the session locally (after a 401). */
  forget(exitPath?: string): void;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [token, setToken] = useState<string | null>(() => readToken());
  const [user, setUserState] = useState<User | null>(() => readStoredUser());
  const [exitPath, setExitPath] = useState<string | null>(null);

  const setUser = useCallback((next: User) => {
    storeUser(next);
    setUserState(next);
  }, []);

  const forget = useCallback((exit?: string) => {
    clearSession();
    setExitPath(exit ?? null);
    setToken(null);
    setUserState(null);
  }, []);

  const finishSignIn = useCallback((answer: SignInAnswer) => {
    storeSession(answer.token, answer.user);
    setExitPath(null);
    setToken(answer.token);
    setUserState(answer.user);
    return answer.user;
  }, []);

  const beginSignIn = useCallback(
    async (email: string, password: string): Promise<SignInResult> => {
      const answer = await api.post<SignInAnswer | SecondFactorChallenge>('/auth/signin', { email, password });
      if ('challenge' in answer) return { kind: 'secondFactor', mode: answer.secondFactor, challenge: answer.challenge };
      return { kind: 'signedIn', user: finishSignIn(answer) };
    },
    [finishSignIn],
  );

  const signIn = useCallback(
    async (email: string, password: string) => {
      const result = await beginSignIn(email, password);
      if (result.kind !== 'signedIn') throw new Error('This account signs in with a second factor');
      return result.user;
    },
    [beginSignIn],
  );

  const signOut = useCallback(
    async (exit?: string) => {
      try {
        if (readToken()) await api.post('/auth/signout');
      } catch (error) {
        console.warn('Sign-out call failed; clearing the local session anyway.', error);
      } finally {
        forget(exit);
      }
    },
    [forget],
  );

  const refreshUser = useCallback(async () => {
    const answer = await api.get<Envelope<User>>('/auth/user');
    setUser(answer.data);
    return answer.data;
  }, [setUser]);

  // A token without a stored user (kept by another tab, or a session started by setting only `token`): load the user
  // it belongs to. A rejected token answers 401, and the API client's handler forgets it and goes to /signin.
  useEffect(() => {
    if (!token || user) return;
    let cancelled = false;
    api
      .get<Envelope<User>>('/auth/user')
      .then((answer) => {
        if (!cancelled) setUser(answer.data);
      })
      .catch((error: unknown) => console.warn('Could not load the signed-in user.', error));
    return () => {
      cancelled = true;
    };
  }, [token, user, setUser]);

  const value = useMemo<Session>(
    () => ({ token, user, isAuthenticated: Boolean(token), exitPath, signIn, beginSignIn, finishSignIn, signOut, refreshUser, setUser, forget }),
    [token, user, exitPath, signIn, beginSignIn, finishSignIn, signOut, refreshUser, setUser, forget],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}
