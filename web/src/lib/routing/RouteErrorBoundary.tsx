import { Component, type ErrorInfo, type ReactNode } from 'react';

interface State {
  readonly error: Error | null;
}

/**
 * What a screen that failed (its code could not be downloaded, or it threw while rendering) shows instead of a blank
 * window: a message and a way to reload. `resetKey` (the path) clears it when the visitor goes elsewhere.
 */
export class RouteErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidUpdate(previous: { resetKey: string }): void {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn('A screen failed to load or render.', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <div className="route-error" role="alert">
        <h1>This page could not be shown</h1>
        <p>Check your connection, then reload the page.</p>
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
  }
}
