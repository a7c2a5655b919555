import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express } from 'express';
import { staticWeb } from './http/staticWeb';

export interface AppOptions {
  /** Directory of the web build; defaults to web/dist of this repository. */
  readonly webDist?: string;
}

const defaultWebDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

export function createApp(options: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  const api = express.Router();
  api.get('/health', (_req, res) => {
    res.json({ data: { status: 'ok' } });
  });
  api.use((_req, res) => {
    res.status(404).json({ message: 'Not found' });
  });
  app.use('/api', api);
  app.use(staticWeb(options.webDist ?? defaultWebDist));
  return app;
}
