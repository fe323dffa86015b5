/**
 * The HAR report notes why a request got no response in flowrun's words:
 * `Request failed: connection refused.` With short secrets that are those very words (passwords
 * `refused`, `failed`), the note is made with the values it quotes masked and its words kept, as
 * the step's message is; the values the request sent are masked in the entry, and a secret of 8
 * characters or more anywhere.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harReporter } from "../../lib/report/har.ts";
import { Redactor } from "../../lib/secrets/redactor.ts";
import { noteToldSince } from "../../lib/secrets/said_since.ts";

/** A port nothing listens on: one the system gave a listener, closed again. */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

const REFUSED = `name: refused
steps:
  - name: refused
    request:
      url: "\${CLOSED}/x?q=\${ENV.PASSWORD_1}&t=\${ENV.API_TOKEN}"
      headers: {x-a: "\${ENV.PASSWORD_2}"}
`;

Deno.test("the HAR's note of a request without a response keeps flowrun's words", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-short-har-note-" });
  try {
    await Deno.writeTextFile(`${dir}/refused.yaml`, REFUSED);
    const har = `${dir}/run.har`;
    const cli = await runCli(["run", `${dir}/refused.yaml`, "--report-har", har], {
      env: {
        CLOSED: `http://127.0.0.1:${closedPort()}`,
        PASSWORD_1: "refused",
        PASSWORD_2: "failed",
        API_TOKEN: "tok-9f8e7d6c5b",
      },
    });
    assert.equal(cli.code, 1, cli.stdout + cli.stderr);
    const text = await Deno.readTextFile(har);
    const entries = JSON.parse(text).log.entries as { _error?: string; request: { url: string } }[];
    assert.ok(entries.length > 0, text);
    for (const e of entries) {
      assert.equal(e._error, "Request failed: connection refused.");
      // An opaque secret gets a label of its own in the HAR (har_labels.ts).
      assert.match(e.request.url, /\/x\?q=\*\*\*&t=masked-[0-9a-f]+$/);
    }
    for (const leak of ["q=refused", '"failed"', "tok-9f8e7d6c5b", "connection ***"]) {
      assert.ok(!text.includes(leak), `${leak} in ${text}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the HAR's note is masked by a short secret learnt after it was made", async () => {
  const redactor = new Redactor();
  redactor.add("refused");
  let text = "";
  const write = (t: string) => void (text += t) as unknown as Promise<void>;
  const har = harReporter({ write, redactor });
  const flow = { file: "a.yaml", name: "A" };
  await har.onRunStart?.({ run_id: "r", runner_version: "1", started_at: "", files: ["a.yaml"] });
  await har.onFlowStart?.(flow);
  const mark = redactor.size;
  // Made with the values masked then: "k7q2zx" was no secret yet.
  await har.onExchange?.(flow, {
    step: "get",
    attempt: 1,
    started_at: "2026-01-01T00:00:00.000Z",
    duration_ms: 3,
    request: { method: "GET", url: "http://api.test/k7q2zx", headers: [], size: 0 },
    error: 'Request failed: connection refused ("http://api.test/k7q2zx").',
  });
  redactor.add("k7q2zx"); // a later step's session token
  const ended = { ...flow, status: "error" as const, started_at: "", duration_ms: 3, steps: [] };
  noteToldSince(ended, mark);
  await har.onFlowEnd?.(ended);
  const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
  const totals = { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } };
  await har.onRunEnd?.({
    run_id: "r",
    runner_version: "1",
    started_at: "",
    duration_ms: 3,
    status: "failed",
    totals,
    flows: [],
  });
  const [entry] = JSON.parse(text).log.entries;
  assert.equal(entry._error, 'Request failed: connection refused ("http://api.test/***").');
  assert.ok(!text.includes("k7q2zx"), text);
});
