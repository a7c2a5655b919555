import { describe, expect, it } from 'vitest';
import { restoredThroughSeq, type LogCount } from './checkpointChecks';

const covers = [
  { seq: 1, events: 10n },
  { seq: 2, events: 25n },
  { seq: 3, events: 40n },
];

describe('restoredThroughSeq', () => {
  it('is the last record whose event is in the log with as many events up to it', () => {
    const counts: LogCount[] = [
      { eventsUpTo: 10n, reached: true },
      { eventsUpTo: 25n, reached: true },
      { eventsUpTo: 31n, reached: false },
    ];
    expect(restoredThroughSeq(covers, (i) => counts[i]!)).toBe(2);
  });

  it('stops at the first record the log does not hold all of, even when a later one happens to match', () => {
    const counts: LogCount[] = [
      { eventsUpTo: 10n, reached: true },
      { eventsUpTo: 24n, reached: true },
      { eventsUpTo: 40n, reached: true },
    ];
    expect(restoredThroughSeq(covers, (i) => counts[i]!)).toBe(1);
  });

  it('is 0 when the log ends before the first record, and the last seq when it holds them all', () => {
    expect(restoredThroughSeq(covers, () => ({ eventsUpTo: 3n, reached: false }))).toBe(0);
    const all: LogCount[] = covers.map((c) => ({ eventsUpTo: c.events, reached: true }));
    expect(restoredThroughSeq(covers, (i) => all[i]!)).toBe(3);
  });
});
