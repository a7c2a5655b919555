export * from './childProcess';
export * from './holdAtFault';
export * from './transferFixture';
export * from './waitUntil';
export * from './privateServices';
export * from './testServices';
export * from './dockerEngine';
export { createTestStandingOrder, type TestStandingOrder } from './standingOrderFixture';
export * from './haPostgres';
