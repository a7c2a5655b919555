import { act, render, screen } from '@testing-library/react';
import { Suspense, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { lazyPage } from './lazyPage';

describe('lazyPage', () => {
  it('keeps a screen first shown after its code loaded mounted when its parent renders again (no remount, no lost state)', async () => {
    let mounts = 0;
    let finishLoading: () => void = () => undefined;
    function Screen() {
      const [mount] = useState(() => (mounts += 1));
      return <p>screen mount {mount}</p>;
    }
    const loading = new Promise<{ Screen: typeof Screen }>((resolve) => {
      finishLoading = () => resolve({ Screen });
    });
    const Page = lazyPage(() => loading, 'Screen');
    let rerender: () => void = () => undefined;
    function Parent() {
      const [, setTick] = useState(0);
      rerender = () => setTick((tick) => tick + 1);
      return (
        <Suspense fallback={<p>loading</p>}>
          <Page />
        </Suspense>
      );
    }
    render(<Parent />);
    expect(screen.getByText('loading')).toBeInTheDocument();
    await act(async () => {
      finishLoading();
      await loading;
    });
    expect(await screen.findByText('screen mount 1')).toBeInTheDocument();
    act(() => rerender());
    expect(screen.getByText('screen mount 1')).toBeInTheDocument();
    expect(mounts).toBe(1);
  });

  it('renders a screen whose code is already loaded at once, without the fallback', async () => {
    function Ready() {
      return <p>ready</p>;
    }
    const Page = lazyPage(() => Promise.resolve({ Ready }), 'Ready');
    await Page.preload();
    render(
      <Suspense fallback={<p>loading</p>}>
        <Page />
      </Suspense>,
    );
    expect(screen.getByText('ready')).toBeInTheDocument();
  });
});
