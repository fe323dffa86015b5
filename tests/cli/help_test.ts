import assert from "node:assert/strict";
import { HELP } from "../../cli/help.ts";
import { RUN_OPTIONS } from "../../cli/run/options.ts";
import { VERSION } from "../../lib/model/version.ts";

Deno.test("--help names the version, every command and every run option", () => {
  assert.ok(HELP.startsWith(`flowrun ${VERSION} — `), HELP.slice(0, 80));
  for (const command of ["run", "validate", "merge", "report", "convert"]) {
    assert.match(HELP, new RegExp(`flowrun ${command}\\b`), command);
  }
  for (const option of Object.keys(RUN_OPTIONS)) {
    assert.ok(HELP.includes(`--${option}`), `--${option} is in the help`);
  }
});
