import { describe, expect, it } from 'vitest';
import { trendOf, type RateResult } from './liveRate';
import { sustains, unsustainedBecause } from './sustainedRate';

function result(overrides: Partial<RateResult>): RateResult {
  return {
    targetRate: 4_000,
    achievedRate: 3_990,
    events: 39_900,
    seconds: 10,
    lag: { p50: 30, p90: 60, p99: 90, max: 120 },
    append: { p50: 10, p99: 40 },
    afterAppend: { p50: 20, p99: 80 },
    trend: { firstThirdP90: 60, lastThirdP90: 55 },
    ...overrides,
  };
}

describe('a rate is sustained', () => {
  it('when the appends keep up and the projector part stays low and level', () => {
    expect(unsustainedBecause(result({}))).toBeUndefined();
    expect(sustains(result({}))).toBe(true);
  });

  it('not when fewer than 95 % of its events were appended', () => {
    expect(unsustainedBecause(result({ achievedRate: 3_700 }))).toMatch(/appended 3700\/s/);
  });

  it("not when the projector's part passes a second at p99", () => {
    expect(unsustainedBecause(result({ afterAppend: { p50: 400, p99: 1_200 } }))).toMatch(/over 1000 ms/);
  });

  it("not when the projector's part grows along the try, though it ends under a second", () => {
    // As measured on 1 December at 6,000 events/s in a 5 s try: 257 ms at p90 in the first third, 591 ms in the last.
    const growing = result({ afterAppend: { p50: 300, p99: 641 }, trend: { firstThirdP90: 256.7, lastThirdP90: 591.2 } });
    expect(unsustainedBecause(growing)).toMatch(/grew along the try \(p90 256\.7 → 591\.2 ms\)/);
  });

  it('when the last third is a little above the first, within the noise of a level queue', () => {
    // 2,000 events/s the same hour: 82.8 ms then 94.4 ms.
    expect(sustains(result({ trend: { firstThirdP90: 82.8, lastThirdP90: 94.4 } }))).toBe(true);
    // A start that is slower than the rest (the first try's cold caches) is no growth.
    expect(sustains(result({ trend: { firstThirdP90: 291.3, lastThirdP90: 39 } }))).toBe(true);
  });

  it('not when a third has no appends to measure', () => {
    expect(sustains(result({ trend: { firstThirdP90: NaN, lastThirdP90: 40 } }))).toBe(false);
  });
});

describe('the trend of a run', () => {
  it("takes the p90 of the projector's part for the appends started in the first and in the last third", () => {
    const timeline: [number, number][] = [];
    // A backlog that grows: each append's part is its start time over ten, plus 5 ms.
    for (let at = 0; at < 9_000; at += 10) timeline.push([at, at / 10 + 5]);
    const trend = trendOf(timeline, 9_000);
    expect(trend.firstThirdP90).toBe(274);
    expect(trend.lastThirdP90).toBe(874);
  });

  it('counts an append started just after the run ends in the last third', () => {
    const trend = trendOf([[100, 10], [3_100, 20], [6_100, 30], [9_050, 500]], 9_000);
    expect(trend).toEqual({ firstThirdP90: 10, lastThirdP90: 500 });
  });
});
