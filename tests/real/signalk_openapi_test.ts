/**
 * `convert openapi` on Signal K server 2.23.0 (npm `signalk-server`, the
 * marine data server, started by signalk.ts with security on): each of the
 * 12 OpenAPI documents it serves (its APIs' and its plugins', 112
 * operations in all) is fetched from one fresh instance, converted with
 * default options, and run as the summary prints it, with only the
 * variables it asks for (`BASE_URL`, and `API_KEY` or `API_TOKEN`: the token
 * of the admin the user made at the first run), each document on a fresh instance of its
 * own (fed the package's sample NMEA 0183 data, as a boat's GPS feeds it).
 * Measured: the operations that got a 2xx, per document; today's
 * counts are floors (docs/real-servers.md names why the others are
 * refused). `REAL_KEEP=DIR` keeps the documents, flows and reports.
 */
import assert from "node:assert/strict";
import { accepted, convertAndRunAsPrinted, knownOnly, operationsOf } from "./measure.ts";
import { prepare, realTest, withInstance } from "./servers.ts";
import {
  SIGNALK,
  SIGNALK_ADMIN,
  SIGNALK_DOCUMENTS,
  signalkLaunch,
  signalkToken,
} from "./signalk.ts";

const prepared = await prepare([SIGNALK]);

/**
 * The operations each document got a 2xx for on 2026-11-26: 45 of 112 in
 * all before the fixes of that day, 55 after them (a $ref to nothing where
 * no operation looks no longer refuses a document; a restart of the
 * course's calculations is sent, not left out as the server's; a
 * destination is a position, not another API's waypoint; a path
 * parameter holds the word other paths put at its place, or the text its
 * parent's read answers; a document that
 * declares schemes and requires none sends its first); 58 since a document
 * whose paths all begin with its server's path sends them as written; 59
 * since a login no sign-up precedes signs in as the user's account; 60 since
 * a path parameter is read from a link an earlier answer hands over (the
 * access request's `href`: `openapi_href_link_test.ts`). The course's
 * destination needs the vessel's position, which the sample data gives.
 */
const FLOORS: Record<string, number> = {
  discovery: 2,
  // 1 before: the document declares its schemes and requires none; the server wants one (401).
  apps: 4,
  autopilot: 2,
  // 7 before: the restart was left out, the destination named a waypoint that does not exist.
  course: 9,
  notifications: 0,
  // 27 before: {resourceType} and {pluginId} were placeholders.
  resources: 29,
  weather: 2,
  // 2 before: its login signs in as the admin (LOGIN_USERNAME, LOGIN_PASSWORD), not a made-up account.
  // 3 before: {id} of GET /requests/{id} is read from the href POST /access/requests answers.
  security: 4,
  history: 2,
  // 0 before: every path already begins with the server's path, and the requests doubled it (404).
  radar: 3,
  // 0 before: the document was refused for a $ref to nothing in a response no path names.
  "plugins/resources-provider": 3,
  "plugins/freeboard-sk": 0,
};

type Doc = { servers?: { url: string }[]; paths?: Record<string, Record<string, unknown>> };

/** Converts `doc` (kept in `dir`) and runs it on a fresh instance; the accepted and refused operations. */
async function measure(
  name: string,
  doc: Doc,
  dir: string,
  launch: ReturnType<typeof signalkLaunch>,
) {
  await Deno.writeTextFile(`${dir}/openapi.json`, JSON.stringify(doc, null, 2));
  return await withInstance(launch, async (b) => {
    const token = await signalkToken(b.origin);
    const trial = await convertAndRunAsPrinted(
      ["convert", "openapi", `${dir}/openapi.json`, "-o", `${dir}/flows`],
      `${dir}/report.json`,
      // The admin's token is the credential of both schemes the documents declare (a cookie, a bearer).
      // And the admin's account, which the security document's login signs in with.
      knownOnly({
        BASE_URL: b.origin,
        API_KEY: token,
        API_TOKEN: token,
        LOGIN_USERNAME: SIGNALK_ADMIN.userId,
        LOGIN_PASSWORD: SIGNALK_ADMIN.password,
      }),
    );
    assert.equal(trial.converted.code, 0, `${name}: ${trial.converted.stderr}`);
    assert.ok(trial.report, `${name}: no report:\n${trial.run.stdout}\n${trial.run.stderr}`);
    assert.ok(Object.keys(trial.env).includes("BASE_URL"), name);
    // The token is the run's variable, never written into a flow.
    for (const entry of Deno.readDirSync(`${dir}/flows`)) {
      if (!entry.name.endsWith(".yaml")) continue;
      const text = Deno.readTextFileSync(`${dir}/flows/${entry.name}`);
      assert.ok(!text.includes(token), `${name}: ${entry.name} holds the token`);
    }
    // The operations as sent: under the path of the document's server, unless every path already
    // begins with it (radar's), when they are sent as written.
    const server = new URL(doc.servers?.[0]?.url ?? "/", b.origin).pathname.replace(/\/$/, "");
    const held = Object.keys(doc.paths ?? {}).every((p) =>
      p === server || p.startsWith(`${server}/`)
    );
    const base = held ? "" : server;
    const ops = operationsOf(doc).map((op) => ({ ...op, path: base + op.path }));
    assert.equal(ops.length, SIGNALK_DOCUMENTS[name], name);
    return accepted(ops, trial.report?.steps ?? []);
  });
}

realTest(
  "Signal K server's 12 OpenAPI documents, each converted and run on a fresh instance, get a 2xx on at least the operations of today",
  prepared.ignoredBecause,
  async (dir) => {
    const launch = signalkLaunch(prepared.install!.prefix);
    const docs = await withInstance(launch, async (a) => {
      const got: Record<string, Doc> = {};
      for (const name of Object.keys(SIGNALK_DOCUMENTS)) {
        const response = await fetch(`${a.origin}/skServer/openapi/${name}`);
        assert.equal(response.status, 200, name);
        got[name] = await response.json();
      }
      return got;
    });
    const lines: string[] = [];
    let total = 0;
    const short: string[] = [];
    for (const [name, doc] of Object.entries(docs)) {
      const sub = `${dir}/${name.replace("/", "_")}`;
      await Deno.mkdir(sub);
      const result = await measure(name, doc, sub, launch);
      total += result.accepted.length;
      lines.push(
        `${name}: ${result.accepted.length} of ${SIGNALK_DOCUMENTS[name]}; refused:\n    ${
          result.refused.map((op) => `${op.method} ${op.path}: ${op.got}`).join("\n    ")
        }`,
      );
      if (result.accepted.length < FLOORS[name]) {
        short.push(`${name}: ${result.accepted.length} < ${FLOORS[name]}`);
      }
    }
    console.error(
      `signalk-server@${SIGNALK.version}: ${total} of 112 accepted\n  ${lines.join("\n  ")}`,
    );
    assert.deepEqual(short, []);
    assert.ok(total >= 60, `${total} < 60`);
  },
);
