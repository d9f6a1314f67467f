#!/usr/bin/env node
// Thin launcher so the bin link exists before the first build; the program is in dist/.
import { main } from "../dist/main.js";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    // Reaching here is a bug in strictwire, not bad input: say so plainly.
    process.stderr.write(`strictwire: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 70;
  },
);
