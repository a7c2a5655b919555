/** The public forms' schemas (formSchemas.ts), loaded on first use; later calls get the same module. */
export const loadFormSchemas = () => import('./formSchemas');
