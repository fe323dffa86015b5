/**
 * Every secret main's redactor holds when the workers start reaches them,
 * not only those the run itself registered: a `--secret` value, a proxy
 * password or a vars-file secret the CLI added before the run is masked by
 * a worker before it cuts a long body, so no beginning of it is left at the
 * cut where no later masking can recognise it.
 */
import assert from "node:assert/strict";
import { loadFlows } from "../../lib/load/suite.ts";
import { runFlows } from "../../lib/run/flows.ts";
import { MAX_BODY } from "../../lib/run/context.ts";
import { Redactor } from "../../lib/secrets/mod.ts";
import { notingServer, suite } from "../support/workers.ts";

Deno.test("a secret main knew before the run is masked by a worker before it cuts a body across it", async () => {
  const secret = `srv-${crypto.randomUUID().replaceAll("-", "")}`;
  // The body is cut after MAX_BODY characters: `?k=` of the secret's characters come before the cut.
  const api = notingServer(({ query }) => {
    const k = Number(query.get("k"));
    const body = `${"a".repeat(MAX_BODY - k)}${secret}${"b".repeat(64)}`;
    return new Response(body, { status: 500 });
  });
  const files: Record<string, string> = {};
  for (const k of [4, 6, 9, 12, 15]) {
    files[`flows/k${k}.yaml`] =
      `name: cut after ${k}\nsteps:\n  - name: get\n    request: {url: "${api.base}/big?k=${k}"}\n    assert: {status: 200}\n`;
  }
  const dir = await suite(files);
  try {
    const redactor = new Redactor();
    redactor.add(secret); // as the CLI's, from --secret, before the run starts
    const loaded = await loadFlows([`${dir}/flows`], { setupFiles: [] });
    const result = await runFlows(loaded.flows, {
      jobs: 3,
      workers: { count: 3, checkSetup: true },
      redactor,
    });
    assert.equal(result.flows.length, 5);
    for (const flow of result.flows) {
      const body = flow.steps[0].response?.body ?? "";
      assert.ok(body.length > 60_000, `${flow.name}: the body was kept`);
      const text = JSON.stringify(flow);
      assert.ok(!text.includes(secret.slice(0, 4)), `${flow.name}: ${body.slice(-40)}`);
    }
  } finally {
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
