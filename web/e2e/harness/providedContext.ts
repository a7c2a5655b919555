/** Values the e2e globalSetup hands to every test file through vitest's provide/inject. */
declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the app and its API answer, e.g. http://127.0.0.1:41234 (no trailing slash). */
    baseUrl: string;
    /** The admin account the server created at start-up from ADMIN_EMAIL / ADMIN_PASSWORD. */
    adminEmail: string;
    adminPassword: string;
    /**
     * A user with role auditor, created by globalSetup with `user:create --role auditor`. Against an external server
     * (E2E_BASE_URL): E2E_AUDITOR_EMAIL / E2E_AUDITOR_PASSWORD, or else the admin (admins may use the audit screens).
     */
    auditorEmail: string;
    auditorPassword: string;
    /** The TOTP secrets the admin and the auditor enrolled at their first sign-in (in globalSetup): codes come from them. */
    adminTotpSecret: string;
    auditorTotpSecret: string;
    /** A session of each, signed in with the second factor by globalSetup, for API calls. */
    adminToken: string;
    auditorToken: string;
    /** The server's database (for the CLI `user:create`); E2E_DATABASE_URL against an external server. */
    databaseUrl: string;
    /**
     * What a CLI run against the server needs besides its database: the server's DATA_DIR, where its development
     * keys are (the chain key above all: events a CLI writes under another key fail the audit's verification).
     * E2E_DATA_DIR against an external server.
     */
    cliEnv: Record<string, string>;
  }
}

export {};
