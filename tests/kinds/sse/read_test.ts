/**
 * Loading an `sse:` step: what a correct map becomes, and every mistake one
 * positioned problem with its code and fix, before anything is sent.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../../lib/load/load_flow.ts";
import { withEngines } from "../../../lib/load/engines.ts";
import type { SseSpec } from "../../../lib/kinds/sse/mod.ts";
import { runCli } from "../../support/cli.ts";
import { startSseServer } from "./server.ts";

function flowOf(sse: string, extra = "") {
  const text =
    `name: f\nvars: {base: "http://127.0.0.1:1"}\nsteps:\n  - name: s\n    sse: ${sse}\n${extra}`;
  return withEngines(() => loadFlow(text, "f.yaml", { env: () => "t" }));
}

async function problems(sse: string, extra = "") {
  return (await flowOf(sse, extra)).problems.map((p) =>
    `${p.line}:${p.column} ${p.code} ${p.message}`
  );
}

Deno.test("a full map loads into a spec with every key", async () => {
  const { flow, problems } = await flowOf(
    `{url: "\${vars.base}/e", method: post, headers: {Authorization: "Bearer \${ENV.T}"}, body: {q: 1},` +
      ` until: "$[?@.event == 'done']", count: 5, wait: 2s, last_event_id: "7", reconnects: 2}`,
  );
  assert.deepEqual(problems, []);
  const step = flow!.steps[0];
  assert.equal(step.call?.kind, "sse");
  const spec = step.call!.spec as SseSpec;
  assert.equal(spec.method, "POST");
  assert.equal(spec.count, 5);
  assert.equal(spec.waitMs, 2000);
  assert.equal(spec.reconnects, 2);
  assert.equal(spec.until?.source, "$[?@.event == 'done']");
  assert.equal(spec.lastEventId?.source, "7");
});

Deno.test("defaults: GET, 1,000 events, no reconnects, the step's timeout", async () => {
  const { flow } = await flowOf(`{url: "http://127.0.0.1:1/e"}`);
  const spec = flow!.steps[0].call!.spec as SseSpec;
  assert.deepEqual([spec.method, spec.count, spec.reconnects, spec.waitMs], [
    "GET",
    1000,
    0,
    undefined,
  ]);
});

Deno.test("each mistake is one positioned problem with its code", async () => {
  const cases: [string, string][] = [
    ["{url: http://x.test, until: '$[?@.event ==]'}", "5:38 bad-path"],
    ["{url: ftp://x.test/e}", "5:16 bad-url"],
    ["{url: /events}", "5:16 bad-url"],
    ["{url: http://x.test, body: {a: 1}}", "5:31 conflicting-keys"],
    ["{url: http://x.test, method: PUT}", "5:39 bad-method"],
    ["{url: http://x.test, count: 0}", "5:38 wrong-type"],
    ["{url: http://x.test, reconnects: 101}", "5:43 out-of-range"],
    ["{url: http://x.test, wait: soon}", "5:37 wrong-type"],
    ["{url: http://x.test, headers: [a]}", "5:40 wrong-type"],
    ["{url: http://x.test, until: 3}", "5:38 wrong-type"],
    ["{url: http://x.test, tries: 3}", "5:31 unknown-key"],
    ["{method: GET}", "5:5 missing-key"],
    ["{url: 7}", "5:16 wrong-type"],
    ["{url: http://x.test, headers: {x api key: k}}", "5:41 bad-header"],
    ['{url: http://x.test, headers: {"${vars.base}": k}}', "5:41 bad-header"],
    ['{url: http://x.test, headers: {x-note: "a\\nb"}}', "5:49 bad-header"],
    ['{url: http://x.test, headers: {x-note: "5 €"}}', "5:49 bad-header"],
  ];
  for (const [sse, want] of cases) {
    const got = await problems(sse);
    assert.equal(got.length, 1, `${sse}: ${got.join("\n")}`);
    assert.ok(got[0].startsWith(want), `${sse}: ${got[0]} (wanted ${want})`);
  }
});

Deno.test("a URL built from expressions is checked when sent, not at load", async () => {
  assert.deepEqual(await problems(`{url: "\${vars.base}/e"}`), []);
});

Deno.test("an sse step takes the step keys an HTTP step takes, and not request beside it", async () => {
  const extra = '    capture: {last: "$.json.events[-1].data"}\n    assert: {status: 200}\n' +
    "    options: {retry: {count: 2}, timeout: 3s}\n";
  assert.deepEqual(await problems(`{url: http://x.test/e}`, extra), []);
  const both = await problems(`{url: http://x.test/e}`, "    request: {url: http://x.test}\n");
  assert.ok(both.length >= 1, both.join("\n"));
});

Deno.test("validate lists each mistake of an sse map, positioned; run sends nothing", async () => {
  const server = startSseServer();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-sse-validate-" });
  try {
    const file = `${dir}/f.yaml`;
    await Deno.writeTextFile(
      file,
      `name: v\nsteps:\n  - name: s\n    sse:\n      url: "${server.url}/forever"\n` +
        `      until: "$[?@.event ==]"\n      body: {a: 1}\n      count: 0\n`,
    );
    const validate = await runCli(["validate", file]);
    assert.equal(validate.code, 2, validate.stdout + validate.stderr);
    const lines = (validate.stdout + validate.stderr).split("\n").filter((l) => l.startsWith(file));
    assert.deepEqual(lines.map((l) => l.slice(file.length).replace(/\]:.*/, "]")), [
      ":6:14 error[bad-path]",
      ":7:7 error[conflicting-keys]",
      ":8:14 error[wrong-type]",
    ]);
    const run = await runCli(["run", file]);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.deepEqual(server.seen, [], "nothing is sent");
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
