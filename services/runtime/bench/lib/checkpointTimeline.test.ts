import { describe, expect, it } from 'vitest';
import { checkTimeline, reachedAt } from './checkpointTimeline';

const position = (n: number) => `${String(n).padStart(20, '0')}:${String(n).padStart(20, '0')}`;

describe('the checkpoint timeline', () => {
  const entries: Array<[number, string]> = [
    [1_000, position(10)],
    [1_050, position(25)],
    [1_200, position(40)],
  ];

  it('gives the first time the checkpoint reached a position, and nothing past the last one heard', () => {
    expect(reachedAt(entries, position(1))).toBe(1_000);
    expect(reachedAt(entries, position(10))).toBe(1_000);
    expect(reachedAt(entries, position(11))).toBe(1_050);
    expect(reachedAt(entries, position(40))).toBe(1_200);
    expect(reachedAt(entries, position(41))).toBeUndefined();
  });

  it('finds nothing wrong with an ordered timeline whose times follow the commits', () => {
    expect(checkTimeline(entries, [3, 40, 120, 0, -2], 5)).toEqual([]);
  });

  it('says when the notifications went backwards, when events went unseen, and when times precede the commits', () => {
    const backwards: Array<[number, string]> = [entries[0]!, entries[2]!, entries[1]!];
    expect(checkTimeline(backwards, [1, 2, 3], 3)).toEqual([expect.stringMatching(/went backwards at 2 of 3/)]);
    expect(checkTimeline(entries, [1, 2], 3)).toEqual([expect.stringMatching(/^1 of 3 events never seen/)]);
    expect(checkTimeline(entries, [-40, -80, 5], 3)).toEqual([expect.stringMatching(/^2 of 3 events seen passed before their transaction began \(by up to 80 ms\)/)]);
  });
});
