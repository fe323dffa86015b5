/**
 * The Node-RED journey of node_red_har_test.ts, as recorded there once (both
 * HAR forms, fixtures/node_red.{pw,cdp}.har) and converted here without a
 * browser or a server: a quick check of what the slow test runs live, for
 * the engineers of `convert har`.
 *
 * The fixtures are the recordings `REAL_HAR_KEEP=DIR` kept from the slow
 * test, with the entries of static files (scripts, styles, images, fonts,
 * type definitions) and the translation catalogues (`/locales/…`,
 * `/…/messages`) left out and the markup of the pages emptied: what remains
 * is every API call of the journey, as the browser recorded it.
 * `node_red.second.*.har` are the same journey recorded again on another
 * fresh instance.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { runCli } from "../../support/cli.ts";
import { headerVariables } from "../../support/convert_apps.ts";
import { NODE_RED_PASSWORD } from "./node_red.ts";
import { SERVICE_PASSWORD } from "./journey.ts";
import { strayNodes } from "./measure.ts";

const FIXTURES = new URL("./fixtures/", import.meta.url).pathname;

interface Step {
  name: string;
  /** Absent on a websocket step (the recording's `/comms` socket). */
  request?: {
    method: string;
    url: string;
    headers?: Record<string, string>;
    body?: Record<string, unknown>;
  };
}

/**
 * Converts one fixture (with `two`, the journey's second recording too) with
 * default options and validates the flow as its summary says; the flow, its
 * steps and the summary.
 */
async function convert(
  form: string,
  two = false,
): Promise<{ flow: string; steps: Step[]; summary: string }> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-node-red-stored-" });
  try {
    const out = `${dir}/flow.yaml`;
    const hars = [`${FIXTURES}node_red.${form}.har`];
    if (two) hars.push(`${FIXTURES}node_red.second.${form}.har`);
    const run = await runCli(["convert", "har", ...hars, "-o", out]);
    assert.equal(run.code, 0, run.stderr);
    const flow = await Deno.readTextFile(out);
    // As the summary says: validate with the variables it asks for set.
    const env = Object.fromEntries(
      headerVariables(flow).filter((v) => v.required).map((v) => [v.name, "x"]),
    );
    const validated = await runCli(["validate", out], { env });
    assert.equal(validated.code, 0, `${validated.stdout}${validated.stderr}\n${flow}`);
    return { flow, steps: parse(flow).steps, summary: run.stderr };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

for (const form of ["pw", "cdp"]) {
  Deno.test(`node-red ${form}: the flow asks for the typed passwords and takes the token from the login`, async () => {
    const { flow, steps } = await convert(form);
    for (const typed of [NODE_RED_PASSWORD, SERVICE_PASSWORD]) assert.ok(!flow.includes(typed));
    const required = headerVariables(flow).filter((v) => v.required).map((v) => v.name);
    // The login's password, and the one typed into the HTTP request node.
    assert.deepEqual(required.filter((n) => /PASSWORD/.test(n)), [
      "LOGIN_PASSWORD",
      "CREATE_FLOW_PASSWORD",
    ]);
    // Goal met: nothing else is asked (until 2026-11-26 the node's `authType: basic` was asked
    // for by its key's name, though `GET /flows` answers it back).
    const more = required.filter((n) => !/PASSWORD/.test(n));
    assert.deepEqual(more, [], flow);
    assert.match(flow, /authType: basic/);
    const login = steps.find((s) => s.request?.url.endsWith("/auth/token"));
    assert.ok(login, flow);
    // Every admin call after the login sends the token the login's live answer issued.
    const after = steps.slice(steps.indexOf(login) + 1);
    const bearers = after.map((s) => s.request?.headers?.authorization).filter((a) => a);
    assert.ok(bearers.length >= 20, flow);
    for (const bearer of bearers) {
      assert.equal(bearer, `Bearer \${steps.${login.name}.capture.access_token}`);
    }
  });

  Deno.test(`node-red ${form}: each deploy sends the revision the server answered last, and its flows as a list`, async () => {
    const { steps, summary } = await convert(form);
    const deploys = steps.filter((s) =>
      s.request?.method === "POST" && /\/flows$/.test(s.request.url)
    );
    assert.equal(deploys.length, 3);
    for (const deploy of deploys) {
      assert.match(String(deploy.request?.body?.rev), /^\$\{steps\.\w+\.capture\.rev\}$/);
    }
    // Goal met in both forms: chrome-har keeps the last deploy's one-tab list only as its item;
    // the size sent and the other deploys (and GET /flows) show it was a list, so it is one again
    // (until 2026-11-26 it was sent as an object: 400, and the 12 steps after it skipped).
    const lists = deploys.map((d) => Array.isArray(d.request?.body?.flows));
    assert.deepEqual(lists, [true, true, true], summary);
  });
}

for (const form of ["pw", "cdp"]) {
  Deno.test(`node-red ${form}, two recordings: each deploy places its nodes on its own tabs`, async () => {
    const { flow } = await convert(form, true);
    const { stray, placed } = strayNodes(flow);
    assert.equal(placed, 4, flow);
    // Goal met: an id the editor made differs between the recordings and is one var a run,
    // so every node's `z` names its tab (until 2026-11-26 each use was its own
    // ${RANDOM.HEX_16} and 4 of 4 nodes named no tab).
    assert.equal(stray, 0, flow);
    assert.equal(strayNodes((await convert(form)).flow).stray, 0);
  });
}
