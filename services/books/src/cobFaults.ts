/**
 * Fault points of the COB for the crash test (services/books/test/cobScript.ts holds the process at one):
 *   after-standing-orders  the day's standing orders paid; CobStepCompleted not yet recorded
 *   after-interest-accrued InterestAccrued recorded; the day's interest not yet booked
 *   interest-payments      month end: two of the month's interest payments made, the others not yet
 *   before-close           the day's totals and hash computed; BusinessDayClosed not yet appended
 */
export const cobFaultPoints = ['after-standing-orders', 'after-interest-accrued', 'interest-payments', 'before-close'] as const;
export type CobFaultPoint = (typeof cobFaultPoints)[number];
export type CobFaultHook = (point: CobFaultPoint) => Promise<void>;
