/**
 * Test helper (not exported from the package): given(events).when(command).then(events | refused(code, message)).
 * Every event a decider emits is also checked against its registered zod schema, with no field left out of it.
 */
import { expect } from 'vitest';
import { isDomainError } from '../domainError';
import type { DomainErrorCode } from '../domainError';
import { safeParseEvent } from '../events/eventSchemas';

export interface ExpectedRefusal {
  readonly refused: true;
  readonly code: DomainErrorCode;
  readonly message: string;
}

/** The expected refusal: its code and its exact message text. */
export function refused(code: DomainErrorCode, message: string): ExpectedRefusal {
  return { refused: true, code, message };
}

function isRefusal(value: unknown): value is ExpectedRefusal {
  return typeof value === 'object' && value !== null && 'refused' in value;
}

function isEventLike(value: unknown): value is { type: string; data: unknown } {
  return typeof value === 'object' && value !== null && 'type' in value && 'data' in value && typeof value.type === 'string';
}

/** Asserts each emitted event (in an array, or in the arrays of a per-stream object) matches its schema exactly. */
export function expectValidEvents(decision: unknown): void {
  const lists = Array.isArray(decision) ? [decision] : typeof decision === 'object' && decision !== null ? Object.values(decision) : [];
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const event of list) {
      if (!isEventLike(event)) continue;
      const parsed = safeParseEvent(event.type, event.data);
      if (!parsed.ok) throw parsed.error;
      expect(parsed.event.data, `${event.type} has fields outside its schema`).toEqual(event.data);
    }
  }
}

export interface SpecifiedDecider<Command, Event, State, Decision> {
  readonly initialState: State;
  readonly evolve: (state: State, event: Event) => State;
  readonly decide: (command: Command, state: State) => Decision;
}

export function deciderSpecification<Command, Event, State, Decision>(decider: SpecifiedDecider<Command, Event, State, Decision>) {
  return {
    given(events: readonly Event[] = []) {
      const state = events.reduce(decider.evolve, decider.initialState);
      return {
        when(command: Command) {
          const run = (): Decision => decider.decide(command, state);
          return {
            then(expected: Decision | ExpectedRefusal): void {
              if (isRefusal(expected)) {
                let error: unknown;
                try {
                  run();
                } catch (caught) {
                  error = caught;
                }
                if (!isDomainError(error)) throw new Error(`Expected refusal '${expected.code}' but ${error === undefined ? 'the command was accepted' : String(error)}`);
                expect({ code: error.code, message: error.message }).toEqual({ code: expected.code, message: expected.message });
                return;
              }
              const decision = run();
              expectValidEvents(decision);
              expect(decision).toEqual(expected);
            },
            /** The decision, for assertions the table form cannot express. */
            decision(): Decision {
              const decision = run();
              expectValidEvents(decision);
              return decision;
            },
          };
        },
      };
    },
  };
}
