/**
 * Red-team of `--workers`: a secret a worker learns reaches the main
 * thread's redactor, and the other workers, when it arrives, not after the
 * worker's earlier events have been reported: a flow of main's own or of
 * another worker that meets the value (raw, percent-encoded, in base64,
 * JSON-escaped) while main's reporters are still busy never shows it.
 */
import assert from "node:assert/strict";
import { loadFlows } from "../../lib/load/suite.ts";
import type { FlowResult } from "../../lib/model/result.ts";
import { runFlows } from "../../lib/run/flows.ts";
import { notingServer, sleep, suite } from "../support/workers.ts";

Deno.test("a secret a worker captures masks main's and another worker's flow while main's reporters lag behind", async () => {
  // Characters that percent-encoding and JSON change, so each encoding is a form of its own.
  const secret = `tok+/${crypto.randomUUID().replaceAll("-", "")}"=`;
  const forms = [secret, encodeURIComponent(secret), btoa(secret), JSON.stringify(secret)];
  const loggedIn = Promise.withResolvers<void>();
  const api = notingServer(async ({ path }) => {
    if (path === "/login") {
      setTimeout(loggedIn.resolve, 0);
      return Response.json({ api_token: secret });
    }
    if (path === "/echo") {
      // Main's flow meets the value (under a key that is no secret's) after the worker captured it.
      // The grace lets the capture reach main and the other workers on a busy machine too.
      await loggedIn.promise;
      await sleep(1500);
      return Response.json({ value: secret, query: encodeURIComponent(secret), b64: btoa(secret) });
    }
    return Response.json({});
  });
  // By place: main runs a.yaml, the first worker b.yaml then c.yaml, the second d.yaml.
  const dir = await suite({
    "flows/a.yaml": `name: main meets it
steps:
  - name: echo
    request: {url: "${api.base}/echo"}
    options: {timeout: 3m}
    assert: {json: [{path: $.json.value, equals: x}]}
`,
    "flows/b.yaml":
      `name: slow to report\nsteps:\n  - name: get\n    request: {url: "${api.base}/b"}\n`,
    "flows/c.yaml": `name: the worker meets it
steps:
  - name: echo
    request: {url: "${api.base}/echo"}
    options: {timeout: 3m}
    assert: {json: [{path: $.json.value, equals: x}]}
`,
    "flows/d.yaml": `name: logs in
steps:
  - name: login
    request: {method: POST, url: "${api.base}/login"}
    capture: {api_token: $.json.api_token}
`,
  });
  const mainEnded = Promise.withResolvers<void>();
  const ended: string[] = [];
  try {
    const loaded = await loadFlows([`${dir}/flows`], { setupFiles: [] });
    await runFlows(loaded.flows, {
      jobs: 3,
      workers: { count: 3, checkSetup: true },
      reporter: {
        // Main's reporters are busy with the first worker's events until main's flow has ended.
        onStepEnd: async (flow) => {
          if (flow.name === "slow to report") {
            await Promise.race([mainEnded.promise, sleep(5000)]);
          }
        },
        onFlowEnd: (flow: FlowResult) => {
          ended.push(JSON.stringify(flow));
          if (flow.name === "main meets it") mainEnded.resolve();
        },
      },
    });
    for (const name of ["main meets it", "the worker meets it"]) {
      const flow = ended.find((f) => f.includes(name))!;
      for (const form of forms) assert.ok(!flow.includes(form), `${name}: ${form} in ${flow}`);
      assert.match(flow, /\*\*\*/);
    }
  } finally {
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
