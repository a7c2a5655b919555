/**
 * Fault points of the COB for the crash test (services/books/test/cobScript.ts holds the process at one):
 *   after-standing-orders  the day's standing orders paid; CobStepCompleted not yet recorded
 *   before-close           the day's totals and hash computed; BusinessDayClosed not yet appended
 */
export const cobFaultPoints = ['after-standing-orders', 'before-close'] as const;
export type CobFaultPoint = (typeof cobFaultPoints)[number];
export type CobFaultHook = (point: CobFaultPoint) => Promise<void>;
