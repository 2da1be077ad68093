import { config } from 'zod/v4/core';

/**
 * Parse without compiling code at run time. Zod compiles object parsers with `new Function`, and
 * probes once whether it may; under the web client's Content-Security-Policy (no 'unsafe-eval')
 * that probe is a reported violation. The server keeps the compiled parsers.
 */
export function parseWithoutEval(): void {
  config({ jitless: true });
}
