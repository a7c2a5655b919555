import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../../components/Icon';
import type { NavMenuItem } from './navItems';

export interface NavDropdownProps {
  menu: NavMenuItem;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * A disclosure menu of site navigation (the pattern for navigation menus: a button with aria-expanded that shows
 * a list of links). Enter, Space or ArrowDown opens it; arrow keys move between links; Escape closes it and puts
 * focus back on the button; focus or a click leaving it closes it.
 */
export function NavDropdown({ menu, open, onOpenChange }: NavDropdownProps) {
  const listId = useId();
  const root = useRef<HTMLLIElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const focusFirstOnOpen = useRef(false);

  const links = () => Array.from(root.current?.querySelectorAll<HTMLAnchorElement>('.nav-dropdown-list a') ?? []);

  useEffect(() => {
    if (open && focusFirstOnOpen.current) {
      focusFirstOnOpen.current = false;
      links()[0]?.focus();
    }
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) onOpenChange(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open, onOpenChange]);

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (open) links()[0]?.focus();
      else {
        focusFirstOnOpen.current = true;
        onOpenChange(true);
      }
    }
  };

  const onListKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const all = links();
    const index = all.indexOf(document.activeElement as HTMLAnchorElement);
    const moves: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: all.length - 1 };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    all[(target + all.length) % all.length]?.focus();
  };

  return (
    <li
      ref={root}
      className={`nav-item nav-dropdown${open ? ' nav-dropdown-open' : ''}`}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          onOpenChange(false);
          button.current?.focus();
        }
      }}
      onBlur={(event) => {
        if (open && !root.current?.contains(event.relatedTarget as Node | null) && event.relatedTarget !== null) onOpenChange(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className="nav-link nav-dropdown-toggle"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => onOpenChange(!open)}
        onKeyDown={onButtonKeyDown}
      >
        {menu.label}
        <Icon name="chevronDown" size={16} className="nav-dropdown-chevron" />
      </button>
      <ul id={listId} className="nav-dropdown-list" hidden={!open} onKeyDown={onListKeyDown}>
        {menu.items.map((item) => (
          <li key={item.to}>
            <Link to={item.to} className="nav-dropdown-link" onClick={() => onOpenChange(false)}>
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </li>
  );
}
