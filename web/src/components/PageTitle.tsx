import { useEffect } from 'react';
import { bankDetails } from './bankDetails';

/** Sets the document title for the current screen ("Contact · Summit Bank"). Renders nothing. */
export function PageTitle({ children }: { children?: string }) {
  const title = children ? `${children} · ${bankDetails.name}` : `${bankDetails.name} — Personal and business banking`;
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}
