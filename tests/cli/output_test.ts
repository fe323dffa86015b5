import assert from "node:assert/strict";
import { redactor, save, useColor } from "../../cli/output.ts";

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

Deno.test("an artifact is saved masked, and the bytes written are returned", async () => {
  const dir = await Deno.makeTempDir();
  try {
    redactor.add("output-test-secret-value");
    const bytes = await save(`${dir}/a.txt`, "token=output-test-secret-value\n");
    const text = await Deno.readTextFile(`${dir}/a.txt`);
    assert.ok(!text.includes("output-test-secret-value"), text);
    assert.equal(new TextDecoder().decode(bytes), text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
