import assert from "node:assert/strict";
import { useColor } from "../../cli/output.ts";

Deno.test("colours: --no-color, --color, FORCE_COLOR, NO_COLOR, then the terminal", () => {
  const host = (env: Record<string, string>, terminal: boolean) => ({
    env: (name: string) => env[name],
    isTerminal: () => terminal,
  });
  assert.equal(useColor({ color: true, "no-color": true }, host({}, true)), false);
  assert.equal(useColor({ color: true }, host({ NO_COLOR: "1" }, false)), true);
  assert.equal(useColor({}, host({ FORCE_COLOR: "1", NO_COLOR: "1" }, false)), true);
  assert.equal(useColor({}, host({ FORCE_COLOR: " FALSE " }, true)), false);
  assert.equal(useColor({}, host({ FORCE_COLOR: "0" }, true)), false);
  assert.equal(useColor({}, host({ NO_COLOR: "1" }, true)), false);
  assert.equal(useColor({}, host({ NO_COLOR: "" }, true)), true);
  assert.equal(useColor({}, host({}, false)), false);
});
