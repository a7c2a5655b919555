import { afterEach, describe, expect, it, vi } from 'vitest';
import { copyText } from './copyText';

function stubExecCommand(result: boolean | (() => boolean)) {
  const seen: { command: string; selected: string }[] = [];
  const execCommand = vi.fn((command: string) => {
    const active = document.activeElement;
    seen.push({ command, selected: active instanceof HTMLTextAreaElement ? active.value.slice(active.selectionStart, active.selectionEnd) : '' });
    return typeof result === 'function' ? result() : result;
  });
  Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true, writable: true });
  return { execCommand, seen };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(document, 'execCommand');
  document.body.innerHTML = '';
});

describe('copyText', () => {
  it('uses the Clipboard API when it works', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    const { execCommand } = stubExecCommand(true);
    await expect(copyText('1234567890')).resolves.toBe(true);
    expect(writeText).toHaveBeenCalledWith('1234567890');
    expect(execCommand).not.toHaveBeenCalled();
  });

  it('falls back to a selected hidden textarea and execCommand("copy") when the Clipboard API rejects', async () => {
    vi.stubGlobal('navigator', { clipboard: { writeText: () => Promise.reject(new Error('NotAllowedError')) } });
    const { seen } = stubExecCommand(true);
    await expect(copyText('1234567890')).resolves.toBe(true);
    expect(seen).toEqual([{ command: 'copy', selected: '1234567890' }]);
    expect(document.querySelector('textarea')).toBeNull();
  });

  it('falls back when there is no Clipboard API, and gives the focus back', async () => {
    vi.stubGlobal('navigator', {});
    const button = document.createElement('button');
    document.body.appendChild(button);
    button.focus();
    const { seen } = stubExecCommand(true);
    await expect(copyText('42')).resolves.toBe(true);
    expect(seen).toEqual([{ command: 'copy', selected: '42' }]);
    expect(document.activeElement).toBe(button);
  });

  it('resolves false when both ways fail', async () => {
    vi.stubGlobal('navigator', { clipboard: { writeText: () => Promise.reject(new Error('denied')) } });
    stubExecCommand(false);
    await expect(copyText('1')).resolves.toBe(false);
    stubExecCommand(() => {
      throw new Error('not supported');
    });
    await expect(copyText('1')).resolves.toBe(false);
    expect(document.querySelector('textarea')).toBeNull();
  });
});
