/**
 * A capture's `as: length`: a list's count of elements (or a text's length), as a script's
 * `.length` reads it, kept to compare a later answer with. A public json-server project's own
 * Newman suite keeps the list's length before it creates and deletes an item, and checks at the
 * end that the list is as long again.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlows } from "../../lib/run/flows.ts";
import { asType } from "../../lib/check/capture_type.ts";
import "../support/engines.ts";

/** A list that answers the lengths given, one per request. */
function serve(lengths: number[]) {
  let next = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    const n = lengths[Math.min(next++, lengths.length - 1)];
    return Response.json({ items: Array.from({ length: n }, (_, i) => ({ id: i })), name: "todo" });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, stop: () => server.shutdown() };
}

const flowOf = (url: string) =>
  `name: lengths
steps:
  - name: before
    request: {method: GET, url: "${url}/items"}
    capture:
      count: {path: $.json.items, as: length}
      letters: {path: $.json.name, as: length}
  - name: after
    request: {method: GET, url: "${url}/items"}
    assert:
      json:
        - {path: $.json.items, length: "\${steps.before.capture.count}"}
        - {path: $.json.name, length: "\${steps.before.capture.letters}"}
`;

Deno.test("as: length keeps a list's count and a text's length for a later check", async () => {
  for (const [lengths, passed] of [[[2, 2], true], [[2, 3], false]] as const) {
    const api = serve([...lengths]);
    try {
      const { flow, problems } = loadFlow(flowOf(api.url), "lengths.yaml");
      assert.deepEqual(problems, []);
      const run = await runFlows([flow!], { runId: "r1" });
      const [before, after] = run.flows[0].steps;
      assert.equal(before.status, "passed");
      assert.deepEqual(after.assertions.map((a) => a.passed), [passed, true]);
    } finally {
      await api.stop();
    }
  }
});

Deno.test("as: length of what has none fails the capture, naming the value", () => {
  assert.deepEqual(asType([1, 2, 3], "length"), { value: 3 });
  assert.deepEqual(asType("héllo", "length"), { value: 5 });
  assert.match(asType({ a: 1 }, "length").why ?? "", /is neither a list nor text/);
  assert.match(asType(4, "length").why ?? "", /is neither a list nor text/);
});
