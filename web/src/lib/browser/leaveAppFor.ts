/** Leaves the single-page app for a page the server renders itself (e.g. the queue dashboard). */
export function leaveAppFor(url: string): void {
  window.location.assign(url);
}
