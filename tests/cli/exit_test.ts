import assert from "node:assert/strict";
import { EXIT } from "../../cli/exit.ts";
import { HELP } from "../../cli/help.ts";

Deno.test("the exit codes are the documented ones, and --help lists each", () => {
  assert.deepEqual(EXIT, {
    passed: 0,
    failed: 1,
    usage: 2,
    internal: 3,
    artifacts: 4,
    SIGINT: 130,
    SIGTERM: 143,
  });
  for (const code of Object.values(EXIT)) {
    assert.match(HELP, new RegExp(`\\b${code}\\b`), `${code}`);
  }
});
