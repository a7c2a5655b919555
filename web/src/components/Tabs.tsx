import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import './components.css';

export interface TabItem {
  readonly id: string;
  readonly label: ReactNode;
  readonly content: ReactNode;
}

export interface TabsProps {
  /** Names the tab list for assistive technology. */
  label: string;
  tabs: readonly TabItem[];
  defaultTabId?: string;
  className?: string;
}

/**
 * Tabs after the WAI-ARIA pattern: a tablist of tabs, one tabpanel each; only the selected tab is in the tab
 * order; arrow keys move and select (wrapping), Home and End jump to the ends.
 */
export function Tabs({ label, tabs, defaultTabId, className }: TabsProps) {
  const baseId = useId();
  const [selected, setSelected] = useState(defaultTabId ?? tabs[0]?.id);
  const buttons = useRef(new Map<string, HTMLButtonElement>());

  const select = (index: number) => {
    const tab = tabs[(index + tabs.length) % tabs.length];
    if (!tab) return;
    setSelected(tab.id);
    buttons.current.get(tab.id)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowDown: index + 1, ArrowLeft: index - 1, ArrowUp: index - 1, Home: 0, End: tabs.length - 1 };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    select(target);
  };

  return (
    <div className={`tabs${className ? ` ${className}` : ''}`}>
      <div role="tablist" aria-label={label} className="tabs-list">
        {tabs.map((tab, index) => {
          const isSelected = tab.id === selected;
          return (
            <button
              key={tab.id}
              ref={(node) => {
                if (node) buttons.current.set(tab.id, node);
                else buttons.current.delete(tab.id);
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${tab.id}`}
              aria-selected={isSelected}
              aria-controls={`${baseId}-panel-${tab.id}`}
              tabIndex={isSelected ? 0 : -1}
              className={`tabs-tab${isSelected ? ' tabs-tab-selected' : ''}`}
              onClick={() => setSelected(tab.id)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${baseId}-panel-${tab.id}`}
          aria-labelledby={`${baseId}-tab-${tab.id}`}
          hidden={tab.id !== selected}
          tabIndex={0}
          className="tabs-panel"
        >
          {tab.content}
        </div>
      ))}
    </div>
  );
}
