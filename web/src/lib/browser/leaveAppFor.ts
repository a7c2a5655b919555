/**
 * How the app leaves for a page the server renders itself. A test replaces `go` with a spy (jsdom cannot follow a
 * navigation to another document, and `window.location.assign` cannot be replaced): the web tests share their modules
 * across files, so a test replaces a module's export this way rather than with vi.mock.
 */
export const leaving = {
  go(url: string): void {
    window.location.assign(url);
  },
};

/** Leaves the single-page app for a page the server renders itself (e.g. the queue dashboard). */
export function leaveAppFor(url: string): void {
  leaving.go(url);
}
