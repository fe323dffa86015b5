/**
 * A short secret the run learns after a message quoted it: a check that failed on a value a
 * later step (or a later flow) receives as a session token. The message was made before the
 * value was a secret, so it quoted it in clear; the reports keep messages as flowrun's words, so
 * each output masks them also by every short secret learnt since the flow's steps began, as a
 * value. Within a flow every artifact is masked; across flows the reports written at the end of
 * the run are (the console and the log wrote the earlier flow before the secret was known).
 */
import assert from "node:assert/strict";
import { runWritten, unescapeXml } from "./short_secret_artifacts.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlows } from "../../lib/run/flows.ts";
import "../support/engines.ts";

/** The token of each flow: a check reads it first, a login hands it out after. */
const TOKENS: Record<string, string> = { "1": "k7q2zx", "2": "m3p9wv" };

function start(): { base: string; close: () => Promise<void> } {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const [, kind, n] = /^\/(\w+?)(\d)$/.exec(new URL(req.url).pathname) ?? [];
    if (kind === "login") return Response.json({ session_token: TOKENS[n] });
    return Response.json({ got: TOKENS[n] ?? "none" });
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

/** A check and a capture quote the token; then the login hands it out, in the same flow. */
const SAME = `name: same
steps:
  - name: check
    request: {url: "\${BASE_URL}/a1"}
    assert:
      json: [{path: $.json.got, equals: nope}]
  - name: typed
    always: true
    request: {url: "\${BASE_URL}/a1"}
    capture:
      n: {path: $.json.got, as: number}
  - name: login
    always: true
    request: {url: "\${BASE_URL}/login1"}
`;

/** A check quotes the token; a later flow's login hands it out. */
const EARLY = `name: early
steps:
  - name: check
    request: {url: "\${BASE_URL}/a2"}
    assert:
      json: [{path: $.json.got, equals: nope}]
`;

const LATER = `name: later
steps:
  - name: login
    request: {url: "\${BASE_URL}/login2"}
`;

Deno.test("a short secret learnt after a message quoted it is masked in that message", async () => {
  const srv = start();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-short-late-" });
  try {
    const files = [`${dir}/same.yaml`, `${dir}/early.yaml`, `${dir}/later.yaml`];
    await Deno.writeTextFile(files[0], SAME);
    await Deno.writeTextFile(files[1], EARLY);
    await Deno.writeTextFile(files[2], LATER);
    const w = await runWritten(files, dir, { BASE_URL: srv.base });
    assert.equal(w.code, 1, w.console);
    const flow = (name: string) => w.report.flows.find((f) => f.name === name)!;
    const [same, early] = [flow("same"), flow("early")];
    assert.equal(same.steps[0].message, '$.json.got: expected "nope", got "***".');
    assert.equal(
      same.steps[1].message,
      'capture "n": $.json.got gave no number: "***" is not a number.',
    );
    assert.equal(early.steps[0].message, '$.json.got: expected "nope", got "***".');

    // Learnt in the same flow: in no artifact, the console and the log too.
    for (const text of w.texts) assert.ok(!text.includes(TOKENS["1"]), text.slice(0, 400));
    // Learnt by a later flow: in none of the reports written at the end of the run.
    const data = /<script type="application\/json" id="data">(.*?)<\/script>/s.exec(w.html)![1];
    for (const text of [JSON.stringify(w.report), unescapeXml(w.junit), data]) {
      assert.ok(!text.includes(TOKENS["2"]), text.slice(0, 400));
      assert.ok(
        text.includes('expected \\"nope\\", got \\"***\\"') ||
          text.includes('expected "nope", got "***"'),
      );
    }
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a library's result masks a message by a short secret learnt later, each run of a retried flow too", async () => {
  const srv = start();
  try {
    const flows = [EARLY, LATER, SAME].map((text, i) => {
      const written = text.replaceAll("${BASE_URL}", srv.base);
      // The flow that learns its token late runs twice: its first run's messages are kept too.
      const retried = i === 2
        ? written.replace("name: same\n", "name: same\nretries: 1\n")
        : written;
      return loadFlow(retried, `f${i}.yaml`).flow!;
    });
    const result = await runFlows(flows, { runId: "r" });
    const text = JSON.stringify(result);
    assert.ok(!text.includes(TOKENS["1"]) && !text.includes(TOKENS["2"]), text);
    const same = result.flows[2];
    assert.equal(same.attempts?.length, 1, text);
    for (const steps of [same.steps, same.attempts![0].steps, result.flows[0].steps]) {
      assert.equal(steps[0].message, '$.json.got: expected "nope", got "***".');
    }
  } finally {
    await srv.close();
  }
});
