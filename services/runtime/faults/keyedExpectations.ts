import { expect } from 'vitest';
import { finalAnswer, type KeyedTransfer } from './keyedLoad';

/** Every transfer ended 201, always with the same transfer id, whatever answers it got on the way (exactly once). */
export function expectEachTransferOnce(transfers: readonly KeyedTransfer[]): void {
  // A transfer left without a final 201 is shown whole (each answer's status, duration and time) before the check.
  const unfinished = transfers.filter((transfer) => finalAnswer(transfer).status !== 201);
  if (unfinished.length > 0) console.log(`transfers without a final 201: ${JSON.stringify(unfinished)}`);
  for (const transfer of transfers) {
    expect(finalAnswer(transfer).status, transfer.key).toBe(201);
    expect(new Set(transfer.answers.flatMap((a) => (a.transferId ? [a.transferId] : []))).size, transfer.key).toBe(1);
  }
}
