import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy…/waitFor wait up to 10 s instead of 1 s: on a busy 2-core machine (the whole suite in parallel) a page's
// first render — its lazy route's modules imported cold by a fresh worker — and its fetch stubs took over 5 s at a
// load average of 15. A test that waits for something never shown still fails, only later.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => cleanup());
