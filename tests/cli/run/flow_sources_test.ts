import assert from "node:assert/strict";
import { FlowSources } from "../../../cli/run/flow_sources.ts";
import type { Flow } from "../../../lib/model/flow.ts";
import type { FlowResult } from "../../../lib/model/result.ts";

const ended = (file: string): FlowResult => ({
  file,
  name: file,
  status: "passed",
  started_at: "",
  duration_ms: 0,
  steps: [],
});

Deno.test("a file's bytes are kept until its last flow is reported, then only its hash", async () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  const bytes = new Map([["a.yaml", encode("name: a\nsteps: []\n")], ["b.yaml", encode("b\n")]]);
  const rows = { file: "a.yaml", name: "a", steps: [], rows: [{}, {}] } as unknown as Flow;
  const b = { file: "b.yaml", name: "b", steps: [] } as unknown as Flow;
  const sources = new FlowSources(
    bytes,
    [rows, b],
    (data) => Promise.resolve(`sha-${data.length}`),
  );
  const reporter = sources.reporter();
  assert.equal(sources.sourceLine("a.yaml", 1), "name: a");
  assert.equal(sources.sourceLine("a.yaml", 9), undefined);
  await reporter.onFlowEnd?.(ended("a.yaml"));
  // One data row of a.yaml is still to be reported.
  assert.equal(sources.sourceLine("a.yaml", 2), "steps: []");
  await reporter.onFlowEnd?.(ended("a.yaml"));
  assert.equal(sources.sourceLine("a.yaml", 2), undefined);
  assert.deepEqual(sources.manifestFlows(["a.yaml"]), [{ file: "a.yaml", sha256: "sha-18" }]);
  const [bFlow] = sources.manifestFlows(["b.yaml"]);
  assert.ok("bytes" in bFlow && bFlow.bytes.length === 2);
});
