// Preloaded with `node --import` in CLI tests: records every module specifier
// the process resolves, so a test can prove `judge judge.mjs` never loads the compiler.
import { register } from "node:module";

register(
  "data:text/javascript," +
    encodeURIComponent(`
      import { appendFileSync } from "node:fs";
      export async function resolve(specifier, context, next) {
        if (process.env.BJ_TRACE_FILE) appendFileSync(process.env.BJ_TRACE_FILE, specifier + "\\n");
        return next(specifier, context);
      }
    `),
);
