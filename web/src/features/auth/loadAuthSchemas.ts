/** The auth forms' schemas (authSchemas.ts), loaded on first use; later calls get the same module. */
export const loadAuthSchemas = () => import('./authSchemas');
