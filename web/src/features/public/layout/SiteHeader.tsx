import { useCallback, useState, type MouseEvent } from 'react';
import { Link, NavLink } from 'react-router';
import { ButtonLink } from '../../../components/ButtonLink';
import { Icon } from '../../../components/Icon';
import { Logo } from '../../../components/Logo';
import { bankDetails } from '../../../components/bankDetails';
import { useSession } from '../../../lib/session/SessionContext';
import { NavDropdown } from './NavDropdown';
import { navItems } from './navItems';

const NAV_ID = 'site-navigation';

/**
 * The public header: logo, main navigation with its menus, and the Login / Open an Account calls to action.
 * Below 992px the navigation collapses behind a menu button (aria-expanded) and opens as a panel.
 */
export function SiteHeader() {
  const { isAuthenticated } = useSession();
  const [mobileOpen, setMobileOpen] = useState(false);
  const [openMenu, setOpenMenu] = useState<string | null>(null);

  const menuHandler = useCallback(
    (label: string) => (open: boolean) => setOpenMenu((current) => (open ? label : current === label ? null : current)),
    [],
  );

  /** Any followed link closes the mobile panel and the open menu. */
  const onNavClick = (event: MouseEvent<HTMLElement>) => {
    if ((event.target as Element).closest('a')) {
      setMobileOpen(false);
      setOpenMenu(null);
    }
  };

  return (
    <header className="site-header">
      <div className="container site-header-bar">
        <Link to="/" className="site-header-logo" aria-label={`${bankDetails.name} home`}>
          <Logo />
        </Link>
        <button
          type="button"
          className="site-header-toggle"
          aria-expanded={mobileOpen}
          aria-controls={NAV_ID}
          aria-label="Menu"
          onClick={() => setMobileOpen((open) => !open)}
        >
          <Icon name={mobileOpen ? 'close' : 'menu'} size={26} />
        </button>
        <nav
          id={NAV_ID}
          aria-label="Main"
          className={`site-nav${mobileOpen ? ' site-nav-open' : ''}`}
          onClick={onNavClick}
        >
          <ul className="site-nav-list">
            {navItems.map((item) =>
              item.kind === 'link' ? (
                <li key={item.label} className="nav-item">
                  <NavLink to={item.to} end className="nav-link">
                    {item.label}
                  </NavLink>
                </li>
              ) : (
                <NavDropdown key={item.label} menu={item} open={openMenu === item.label} onOpenChange={menuHandler(item.label)} />
              ),
            )}
          </ul>
          <div className="site-nav-actions">
            {isAuthenticated ? (
              <ButtonLink to="/account/home">My Account</ButtonLink>
            ) : (
              <>
                <ButtonLink to="/signin" variant="secondary">
                  Login
                </ButtonLink>
                <ButtonLink to="/signup">Open an Account</ButtonLink>
              </>
            )}
          </div>
        </nav>
      </div>
    </header>
  );
}
