import { describe, expect, it, vi } from 'vitest';
import { createProgressReporter } from './progress';

describe('createProgressReporter without a terminal', () => {
  it('prints the first and last step of each phase, and in between at most one line per interval', () => {
    const lines: string[] = [];
    const progress = createProgressReporter({ print: (line) => lines.push(line), tty: false, everyMs: 60_000 });
    for (let done = 1000; done <= 5000; done += 1000) progress.update({ phase: 'reading the log', done, total: 5000, unit: 'events' });
    for (let done = 10; done <= 30; done += 10) progress.update({ phase: 'checking the streams', done, total: 30, unit: 'streams' });
    progress.stop();
    expect(lines.map((line) => line.replace(/ \(\d+ \w+\/s\)$/, ''))).toEqual([
      'reading the log: 1000 of 5000 events',
      'reading the log: 5000 of 5000 events',
      'checking the streams: 10 of 30 streams',
      'checking the streams: 30 of 30 streams',
    ]);
  });

  it('keeps one phase while its detail changes, and shows the detail after the rate', () => {
    const lines: string[] = [];
    const progress = createProgressReporter({ print: (line) => lines.push(line), tty: false, everyMs: 60_000 });
    for (let days = 1; days <= 3; days += 1) progress.update({ phase: 'seed days', done: days, total: 3, unit: 'days', detail: `${days * 100} events` });
    progress.stop();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^seed days: 1 of 3 days \(\d+ days\/s\), 100 events$/);
    expect(lines[1]).toMatch(/^seed days: 3 of 3 days \(\d+ days\/s\), 300 events$/);
  });

  it('gives a phase the rate of its own work, not of a count carried over from the phase before', () => {
    vi.useFakeTimers();
    try {
      const lines: string[] = [];
      const progress = createProgressReporter({ print: (line) => lines.push(line), tty: false, everyMs: 0 });
      progress.update({ phase: 'rebuild load', done: 0, unit: 'events' });
      vi.advanceTimersByTime(600);
      progress.update({ phase: 'rebuild load', done: 600, unit: 'events' });
      progress.update({ phase: 'rebuild indexes', done: 600, unit: 'events' });
      vi.advanceTimersByTime(600);
      progress.update({ phase: 'rebuild indexes', done: 600, unit: 'events' });
      progress.stop();
      expect(lines.slice(1)).toEqual(['rebuild load: 600 events (1000 events/s)', 'rebuild indexes: 600 events (0 events/s)', 'rebuild indexes: 600 events (0 events/s)']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says nothing more after stop', () => {
    const lines: string[] = [];
    const progress = createProgressReporter({ print: (line) => lines.push(line), tty: false });
    progress.update({ phase: 'comparing', done: 0, unit: 'events' });
    progress.stop();
    progress.stop();
    expect(lines).toHaveLength(1);
  });
});
