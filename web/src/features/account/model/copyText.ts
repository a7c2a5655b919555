/**
 * Copies `text` to the clipboard: the async Clipboard API when the browser offers it (a secure context), else —
 * or when it refuses (no permission, no focus) — a hidden textarea and `document.execCommand('copy')`.
 * Resolves true when either way worked, false when both failed.
 */
export async function copyText(text: string): Promise<boolean> {
  const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
  if (typeof clipboard?.writeText === 'function') {
    try {
      await clipboard.writeText(text);
      return true;
    } catch {
      // Refused: try the old way below.
    }
  }
  return copyWithTextarea(text);
}

/** The fallback: select the text in an off-screen, read-only textarea and ask the browser to copy the selection. */
export function copyWithTextarea(text: string): boolean {
  if (typeof document === 'undefined' || typeof document.execCommand !== 'function' || !document.body) return false;
  const previousFocus = document.activeElement;
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.setAttribute('aria-hidden', 'true');
  area.tabIndex = -1;
  Object.assign(area.style, { position: 'fixed', top: '0', left: '-9999px', opacity: '0', pointerEvents: 'none' });
  document.body.appendChild(area);
  try {
    area.focus();
    area.select();
    area.setSelectionRange(0, text.length);
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
    if (previousFocus instanceof HTMLElement) previousFocus.focus();
  }
}
