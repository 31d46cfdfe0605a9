// Preloaded with `node --import` in CLI tests: records every module specifier
// the process resolves, each followed by the URL it resolved to, so a test can
// prove `judge judge.mjs` never loads the compiler, or which files it loads.
import { register } from "node:module";

register(
  "data:text/javascript," +
    encodeURIComponent(`
      import { appendFileSync } from "node:fs";
      export async function resolve(specifier, context, next) {
        if (process.env.BJ_TRACE_FILE) appendFileSync(process.env.BJ_TRACE_FILE, specifier + "\\n");
        const resolved = await next(specifier, context);
        if (process.env.BJ_TRACE_FILE) appendFileSync(process.env.BJ_TRACE_FILE, resolved.url + "\\n");
        return resolved;
      }
    `),
);
