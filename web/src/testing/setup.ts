import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy…/waitFor wait up to 5 s instead of 1 s: on a busy 2-core machine (the whole suite in parallel) a page's
// first render and its fetch stubs can take longer than a second. A test that waits for something never shown still
// fails, only later.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => cleanup());
