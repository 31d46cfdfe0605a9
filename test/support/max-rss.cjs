// Loaded with `node --require` into a child: prints its peak resident set size (KiB) to stderr as it exits.
process.on("exit", () => process.stderr.write(`max-rss-kib: ${process.resourceUsage().maxRSS}\n`));
