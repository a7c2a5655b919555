import { Link, type LinkProps } from 'react-router';
import './components.css';

export interface ButtonLinkProps extends LinkProps {
  variant?: 'primary' | 'secondary' | 'accent' | 'light' | 'link';
  size?: 'medium' | 'large';
}

/** A router link that looks like a button (calls to action such as "Open an Account"). */
export function ButtonLink({ variant = 'primary', size = 'medium', className, ...rest }: ButtonLinkProps) {
  const classes = ['btn', `btn-${variant}`, size === 'large' ? 'btn-large' : '', className ?? ''].filter(Boolean).join(' ');
  return <Link className={classes} {...rest} />;
}
