import assert from "node:assert/strict";
import { expandRows, parsed, prepare, rowSecrets } from "../../lib/run/prepare.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import type { DeferredFlow, Flow } from "../../lib/model/flow.ts";

function flow(text: string): Flow {
  const { flow, problems } = loadFlow(text, "f.yaml");
  assert.deepEqual(problems, []);
  return flow!;
}

const plain = () => flow('name: f\nsteps:\n  - name: s\n    request: {url: "http://a.test/"}\n');

Deno.test("a data-driven flow becomes one flow per row, the row's values as its vars", () => {
  const rows = {
    ...plain(),
    vars: [{ name: "id", value: { kind: "const" as const, value: 0 } }],
    rows: [
      { name: "one", values: { id: 1 } },
      { name: "two", values: { id: 2 } },
    ],
  } as unknown as Flow;
  const expanded = expandRows([rows, plain()]) as Flow[];
  assert.deepEqual(expanded.map((f) => f.name), ["f [one]", "f [two]", "f"]);
  assert.deepEqual(expanded[1].vars[0].value, { kind: "const", value: 2 });
  assert.equal(expanded[0].rows, undefined);
});

Deno.test("secret-named data columns are found in every parsed flow, deferred ones left out", () => {
  const withRows = {
    ...plain(),
    rows: [{ name: "r", values: { password: "hunter2", user: "ann" } }],
  } as unknown as Flow;
  const deferred = {
    file: "d.yaml",
    load: () => Promise.resolve(plain()),
  } as unknown as DeferredFlow;
  assert.deepEqual(rowSecrets([withRows, deferred], []), ["hunter2"]);
  assert.deepEqual(rowSecrets([withRows], ["user"]).sort(), ["ann", "hunter2"]);
});

Deno.test("a deferred flow is parsed and prepared in its turn; a parsed one is as it is", async () => {
  const f = plain();
  await prepare([f]);
  assert.equal(await parsed(f), f);
  const deferred = {
    file: "d.yaml",
    load: () => Promise.resolve(plain()),
  } as unknown as DeferredFlow;
  assert.equal((await parsed(deferred)).name, "f");
});
