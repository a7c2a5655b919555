import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/routing/lazyPage';

/**
 * The ACH screens, mounted under /audit (auditors and admins, behind RequireAuditor): the files and each file's
 * entries; for admins also building a file now and uploading returns and incoming files. They load on first use.
 */
export const achRoutes: RouteObject[] = [
  {
    path: 'ach',
    Component: lazyPage(() => import('./AchLayout'), 'AchLayout'),
    children: [
      { index: true, Component: lazyPage(() => import('./AchFilesPage'), 'AchFilesPage') },
      { path: 'files/:id', Component: lazyPage(() => import('./AchFilePage'), 'AchFilePage') },
      { path: 'upload', Component: lazyPage(() => import('./AchUploadPage'), 'AchUploadPage') },
    ],
  },
];
