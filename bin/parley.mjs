#!/usr/bin/env node
// The `parley` command: runs the bundled terminal device (built from bin/parley-cli.ts on install).
try {
  await import("../dist/parley-cli.js");
} catch (error) {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes("parley-cli.js")) throw error;
  process.stderr.write(
    "parley: the command is not built yet; run `npm run build:client` in the Parley checkout\n",
  );
  process.exit(1);
}
