import { afterEach, beforeEach, expect, vi, type MockInstance } from 'vitest';

/**
 * Registers hooks that fail the test when anything calls console.error (React's key and act() warnings,
 * unexpected errors). Call once at the top of a test file.
 */
export function failOnConsoleError(): void {
  let spy: MockInstance<typeof console.error>;
  beforeEach(() => {
    spy = vi.spyOn(console, 'error');
  });
  afterEach(() => {
    const calls = spy.mock.calls.map((args) => args.map(String).join(' '));
    spy.mockRestore();
    expect(calls, 'console.error calls').toEqual([]);
  });
}
