#!/usr/bin/env node
// The installed command. The TypeScript sources are compiled to dist/ by `npm ci` (prepare).
import { main } from "../dist/compiler/cli.js";

await main(process.argv.slice(2));
