import assert from "node:assert/strict";
import { redactor } from "../../cli/output.ts";
import { save } from "../../cli/save.ts";

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
