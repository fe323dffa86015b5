/**
 * The tag filter: the steps a `--tag` expression selects, what they need
 * (transitively), and the cleanup steps whose needs all run; a flow the
 * expression selects whole is kept as it is, one it selects nothing of is
 * left out.
 */
import assert from "node:assert/strict";
import { selectSteps } from "../../lib/load/set_steps.ts";
import { compileTags } from "../../lib/select/tags.ts";
import type { Flow } from "../../lib/model/flow.ts";

const flow = {
  file: "f.yaml",
  name: "f",
  vars: [],
  tags: ["api"],
  steps: [
    { name: "login" },
    { name: "token", needs: ["login"] },
    { name: "create", tags: ["write"], needs: ["token"] },
    { name: "list", tags: ["read"], needs: ["login"] },
    { name: "delete", always: true, needs: ["create", "token"] },
    { name: "audit", always: true },
  ],
} as unknown as Flow;

const kept = (tags: string) => selectSteps(flow, compileTags(tags))?.steps.map((s) => s.name);

Deno.test("needs are followed transitively and cleanup runs when all it needs runs", () => {
  assert.deepEqual(kept("write"), ["login", "token", "create", "delete"]);
  assert.deepEqual(kept("read"), ["login", "list"]);
  assert.deepEqual(kept("read or write"), ["login", "token", "create", "list", "delete"]);
});

Deno.test("a flow selected whole is the same object; one selected not at all is undefined", () => {
  assert.equal(selectSteps(flow, compileTags("api")), flow);
  assert.equal(selectSteps(flow, compileTags("ui")), undefined);
  const part = selectSteps(flow, compileTags("read"))!;
  assert.notEqual(part, flow, "a part is a copy: the loaded flow is shared with its includers");
  assert.equal(flow.steps.length, 6);
});
