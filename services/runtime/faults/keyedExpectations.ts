import { expect } from 'vitest';
import { finalAnswer, type KeyedTransfer } from './keyedLoad';

/** Every transfer ended 201, always with the same transfer id, whatever answers it got on the way (exactly once). */
export function expectEachTransferOnce(transfers: readonly KeyedTransfer[]): void {
  for (const transfer of transfers) {
    expect(finalAnswer(transfer).status, transfer.key).toBe(201);
    expect(new Set(transfer.answers.flatMap((a) => (a.transferId ? [a.transferId] : []))).size, transfer.key).toBe(1);
  }
}
