/**
 * `convert openapi` on Etherpad 1.8.14 (npm `ep_etherpad-lite`, started by
 * etherpad.ts), an RPC-shaped API: the document its API serves
 * (`/api/openapi.json`, 48 functions as `GET` and `POST /api/1.2.15/<name>`,
 * 96 operations, every argument an optional query parameter, an `apikey`
 * query parameter) is fetched from one fresh instance, converted with
 * default options, and run as the summary prints it, with only the
 * variables it asks for (`BASE_URL`, and `API_KEY`: the key the user wrote
 * in `APIKEY.txt`), on another fresh instance. Etherpad answers a call it
 * refuses with HTTP 200 and `{"code": 1, "message": "padID is required"}`
 * (its documented 400 is sent as 200 "to keep old behavior"), so two shares
 * are measured: the operations that got a 2xx, and the ones that got a 2xx
 * whose body says `"code":0` — what a user counts as accepted. Both are
 * asserted as floors. `REAL_KEEP=DIR` keeps the document, flows and report.
 */
import assert from "node:assert/strict";
import {
  accepted,
  askedVariables,
  operationsOf,
  printedRun,
  readReport,
  type ReportStep,
} from "./measure.ts";
import { runCli } from "../support/cli.ts";
import { ETHERPAD, ETHERPAD_API_KEY, ETHERPAD_DOCUMENT, etherpadLaunch } from "./etherpad.ts";
import { prepare, realTest, withInstance } from "./servers.ts";

const etherpad = await prepare([ETHERPAD]);

/**
 * Accepted on 2026-11-26, by HTTP status (2xx) and by Etherpad's own `code: 0`: 96 and 20
 * before the ids its creates answer (`groupID`, `authorID`, `sessionID`) were sent back as
 * query parameters; 92 and 25 after. Then the functions ran in the order their names say
 * (`create…` first, `delete…` last) and the `padID` the client names at `createPad` was the
 * run's own: 90 and 58; 60 once each of a create's GET and POST twins named a pad of its own,
 * which the delete of its method removes; 62 once each twin read the group its own method's
 * create answered; 68 once an optional argument the function's own name names was sent
 * (`setText`'s `text`, `setHTML`'s `html`, `appendText`'s `text`); 94 and 74 once
 * `createSession`'s `validUntil`, which its summary calls "an unix timestamp in seconds", was
 * the run's time an hour on (`${NOW.UNIX+1h}`), so the 4 calls reading the session ran; 78
 * once `appendChatMessage` sent the `text` a chat message holds (`getChatHistory`'s `messages`
 * describe one) and ran first, as `append…` adds, so `getChatHistory` had a chat to read; 84
 * once `copyPad`, `movePad` and `copyPadWithoutHistory`, whose name names a pad, sent the run's
 * pad as `sourceID` and a new pad of their own as `destinationID`, the move run last; 86 once
 * `createGroupIfNotExistsFor`, a name ending in a preposition, sent its object, `groupMapper`; 88
 * (92 %) once `getPadID`'s `roID` was read from `getReadOnlyID`'s `readOnlyID`, whose initials
 * it is. The 2
 * short of 96 with a 2xx: `createDiffHTML`, given a pad that exists and no revisions, answers
 * 500 (`createHTTPError.InternalError is not a constructor`, Etherpad's own defect), where it
 * answered 200 `padID is not a string` when it got no pad.
 */
const HTTP_FLOOR = 94;
const CODE_0_FLOOR = 88;

/** The requests (method and URL) whose answer was Etherpad's success, `{"code":0,…}`, in a HAR. */
async function codeZero(harPath: string): Promise<ReportStep[]> {
  const har = JSON.parse(await Deno.readTextFile(harPath));
  const entries: {
    request: { method: string; url: string };
    response: { status: number; content?: { text?: string } };
  }[] = har.log.entries;
  return entries.filter((e) => /^\s*\{\s*"code"\s*:\s*0\s*,/.test(e.response.content?.text ?? ""))
    .map((e) => ({
      name: "",
      status: "passed",
      request: e.request,
      response: { status: e.response.status },
    }));
}

realTest(
  `Etherpad's own OpenAPI document, converted and run on a fresh instance, gets a 2xx on at least ${HTTP_FLOOR} of its 96 operations, code 0 on ${CODE_0_FLOOR}`,
  etherpad.ignoredBecause,
  async (dir) => {
    const launch = etherpadLaunch(etherpad.install!.prefix);
    const doc = await withInstance(launch, async (a) => {
      const response = await fetch(`${a.origin}${ETHERPAD_DOCUMENT}`);
      assert.equal(response.status, 200);
      return await response.json();
    });
    assert.deepEqual(doc.components.securitySchemes, {
      ApiKey: { type: "apiKey", in: "query", name: "apikey" },
    });
    await Deno.writeTextFile(`${dir}/etherpad.json`, JSON.stringify(doc, null, 2));
    await withInstance(launch, async (b) => {
      // As the summary says, with only the variables it asks for; a HAR too, for the bodies.
      const converted = await runCli(
        ["convert", "openapi", `${dir}/etherpad.json`, "-o", `${dir}/flows`],
      );
      assert.equal(converted.code, 0, converted.stderr);
      const env: Record<string, string> = {};
      for (const [variable, what] of askedVariables(converted.stderr)) {
        if (variable === "BASE_URL") env[variable] = b.origin;
        // The API key: the user wrote it in APIKEY.txt when they set the server up.
        else if (variable === "API_KEY") env[variable] = ETHERPAD_API_KEY;
        else {throw new Error(
            `the summary asks for ${variable} (${what}), which a user cannot know`,
          );}
      }
      assert.deepEqual(Object.keys(env).sort(), ["API_KEY", "BASE_URL"]);
      const args = printedRun(converted.stderr);
      assert.ok(args, converted.stderr);
      const reports = ["--report-json", `${dir}/report.json`, "--report-har", `${dir}/run.har`];
      const run = await runCli([...args, ...reports], { env });
      const report = await readReport(`${dir}/report.json`).catch(() => undefined);
      assert.ok(report, `no report:\n${run.stdout}\n${run.stderr}`);
      const base = new URL(doc.servers[0].url).pathname;
      const ops = operationsOf(doc).map((op) => ({ ...op, path: `${base}${op.path}` }));
      assert.equal(ops.length, 96);
      const http = accepted(ops, report.steps);
      const zero = accepted(ops, await codeZero(`${dir}/run.har`));
      console.error(
        `etherpad ${ETHERPAD.version}: ${http.accepted.length} of ${ops.length} operations 2xx, ${zero.accepted.length} with code 0; not code 0:\n  ${
          zero.refused.map((op) => `${op.method} ${op.path}`).join("\n  ")
        }`,
      );
      assert.ok(http.accepted.length >= HTTP_FLOOR, `${http.accepted.length} < ${HTTP_FLOOR}`);
      assert.ok(
        zero.accepted.length >= CODE_0_FLOOR,
        `${zero.accepted.length} < ${CODE_0_FLOOR}`,
      );
      // The document types every answer's `data` an object, but many successes answer `null`,
      // `getChatHead` a chat head of -1 before any chat, and a chat message of an author with no
      // name a `userName` of null: the `openapi:` check reports those differences from the
      // document, and only those, on a call Etherpad accepted. The document writes null nowhere,
      // so a null its schemas do not require passes (tests/check/openapi_optional_null_test.ts)
      // and a member of another type is refused as "must be object,null".
      const differences =
        /\/data(\/chatHead|\/messages\/\d+\/userName)? must be (object|string)(,null)?$/;
      let differing = 0;
      for (const step of report.steps.filter((s) => s.status === "failed")) {
        const ok = zero.accepted.some((op) =>
          step.request?.url.includes(`${op.path}?`) && step.request.method === op.method
        );
        if (!ok || step.response?.status !== 200) continue;
        differing++;
        const bad = (step.assertions ?? []).filter((a) => !a.passed);
        assert.ok(bad.every((a) => differences.test(a.message ?? "")), JSON.stringify(bad));
      }
      console.error(
        `${differing} accepted steps fail only their openapi check (null data, chat head -1, null user name)`,
      );
      // No literal secret: the flows read the key from the environment, and the run's output
      // and report mask it.
      const flows = [...Deno.readDirSync(`${dir}/flows`)].filter((e) => e.name.endsWith(".yaml"))
        .map((e) => Deno.readTextFileSync(`${dir}/flows/${e.name}`)).join("\n");
      assert.match(flows, /\$\{ENV\.API_KEY\}/);
      for (
        const text of [
          flows,
          run.stdout,
          await Deno.readTextFile(`${dir}/report.json`),
          await Deno.readTextFile(`${dir}/run.har`),
        ]
      ) {
        assert.ok(!text.includes(ETHERPAD_API_KEY), "a literal API key");
      }
    });
  },
);
