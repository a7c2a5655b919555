import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { api } from '../api/apiClient';
import type { Envelope, SignInAnswer, User } from '../api/types';
import { clearSession, readStoredUser, readToken, storeSession, storeUser } from './sessionStorage';

export interface Session {
  readonly token: string | null;
  readonly user: User | null;
  readonly isAuthenticated: boolean;
  /** Signs in; stores token and user; resolves with the user. Rejects with the server's ApiError. */
  signIn(email: string, password: string): Promise<User>;
  /** Calls the server's sign-out (best effort), then clears token and user. */
  signOut(): Promise<void>;
  /** Reloads the current user from the server and stores it. */
  refreshUser(): Promise<User>;
  /** Replaces the stored user (after a profile update). */
  setUser(user: User): void;
  /** Forgets the session locally (after a 401). */
  forget(): void;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [token, setToken] = useState<string | null>(() => readToken());
  const [user, setUserState] = useState<User | null>(() => readStoredUser());

  const setUser = useCallback((next: User) => {
    storeUser(next);
    setUserState(next);
  }, []);

  const forget = useCallback(() => {
    clearSession();
    setToken(null);
    setUserState(null);
  }, []);

  const signIn = useCallback(async (email: string, password: string) => {
    const answer = await api.post<SignInAnswer>('/auth/signin', { email, password });
    storeSession(answer.token, answer.user);
    setToken(answer.token);
    setUserState(answer.user);
    return answer.user;
  }, []);

  const signOut = useCallback(async () => {
    try {
      if (readToken()) await api.post('/auth/signout');
    } catch (error) {
      console.warn('Sign-out call failed; clearing the local session anyway.', error);
    } finally {
      forget();
    }
  }, [forget]);

  const refreshUser = useCallback(async () => {
    const answer = await api.get<Envelope<User>>('/auth/user');
    setUser(answer.data);
    return answer.data;
  }, [setUser]);

  const value = useMemo<Session>(
    () => ({ token, user, isAuthenticated: Boolean(token && user), signIn, signOut, refreshUser, setUser, forget }),
    [token, user, signIn, signOut, refreshUser, setUser, forget],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}
