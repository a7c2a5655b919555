/** The password of every customer (and the admin) seed:scale generates: hashed once, shared by all. */
export const SEED_PASSWORD = 'seed-customer-password';
