/**
 * Tells zod not to compile its parsers with `new Function`: its probe for eval is a reported Content-Security-Policy
 * violation under the server's policy (no 'unsafe-eval'), and forms parse a handful of fields. zod reads its settings
 * from `globalThis.__zod_globalConfig` (what `z.config()` writes), so this needs no import of zod, whose code stays
 * in the chunks of the forms that use it. Call it before any schema module loads (main.tsx); zodJitless.test.ts
 * checks that zod sees it.
 */
export function makeZodJitless(): void {
  const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
  holder.__zod_globalConfig ??= {};
  holder.__zod_globalConfig.jitless = true;
}
