/**
 * Formapp (tests/apps/formapp), a server-rendered app with an HTML form
 * login, in the corpus of app shapes: each stored recording (Playwright and
 * chrome-har, re-recorded with `deno task record:apps formapp`) is converted
 * with default options by the CLI and run by the CLI on a fresh instance with
 * only the variables the flow's header names. Every step must pass, no
 * telemetry call may be sent, and no recorded secret, CSRF token, session
 * cookie, page-embedded key or server id may be left literal in the flow.
 */
import assert from "node:assert/strict";
import { EMAIL, PASSWORD, startFormapp } from "./apps/formapp/server.ts";
import { convertAndReplay, explain, literalOutsideComments } from "./support/convert_apps.ts";
import { harCheck } from "./support/harcheck.ts";

const RECORDINGS = new URL("./apps/formapp/recordings/", import.meta.url);

type Entry = {
  request: { method: string; url: string };
  response: {
    headers: { name: string; value: string }[];
    content: { mimeType?: string; text?: string; encoding?: string };
  };
};

/** Values a fresh instance hands out anew: tokens and keys in pages, cookies, cursors, ids. */
function recordedValues(har: string): { secrets: Set<string>; ids: Set<string> } {
  const secrets = new Set<string>();
  const ids = new Set<string>();
  for (const e of JSON.parse(har).log.entries as Entry[]) {
    let text = e.response.content.text ?? "";
    if (e.response.content.encoding === "base64") text = atob(text);
    for (const h of e.response.headers) {
      if (h.name.toLowerCase() !== "set-cookie") continue;
      for (const m of h.value.matchAll(/(?:^|\n)[\w-]+=([^;\n]{8,})/g)) {
        secrets.add(m[1]).add(decodeURIComponent(m[1]));
      }
    }
    for (const m of text.matchAll(/name="csrf-token" content="([^"]+)"/g)) secrets.add(m[1]);
    for (const m of text.matchAll(/name="authenticity_token" value="([^"]+)"/g)) secrets.add(m[1]);
    for (const m of text.matchAll(/"sessionKey":"([^"]+)"/g)) secrets.add(m[1]);
    for (const m of text.matchAll(/data-workspace="([^"]+)"/g)) ids.add(m[1]);
    for (const m of text.matchAll(/"next_cursor":"([^"]+)"/g)) ids.add(m[1]);
    for (const m of text.matchAll(/"id":(\d+)/g)) ids.add(m[1]);
  }
  return { secrets, ids };
}

for (const recording of ["journey.pw.har", "journey.cdp.har"]) {
  Deno.test(`formapp ${recording}: the default conversion passes on a fresh instance`, async () => {
    const har = new URL(recording, RECORDINGS).pathname;
    const text = await Deno.readTextFile(har);
    const app = startFormapp();
    try {
      const replay = await convertAndReplay(
        har,
        app.origin,
        (name) => name === "LOGIN_PASSWORD" ? PASSWORD : undefined,
      );
      assert.equal(replay.converted.code, 0, replay.converted.stderr);
      const { flow } = replay;
      const passed = replay.steps.filter((s) => s.status === "passed").length;
      assert.ok(
        replay.run.code === 0 && replay.steps.length > 0 && passed === replay.steps.length,
        `${explain(replay)}\n${flow}`,
      );
      // The journey's own requests reached the fresh instance, telemetry none.
      for (const call of ["GET /login", "POST /login", "GET /dashboard", "PATCH /api/notes/"]) {
        assert.ok(app.calls.some((c) => c.startsWith(call)), `${call} was not sent\n${flow}`);
      }
      assert.equal(app.events, 0, "the flow sent telemetry");
      assert.deepEqual(
        Object.keys(replay.env).filter((n) => !/BASE_URL/.test(n)),
        ["LOGIN_PASSWORD"],
        flow,
      );
      // The form is written as a form: each value encoded by the runner, the password read.
      assert.match(flow, /\n {6}form:\n/, flow);
      assert.match(flow, /\n {8}password: \$\{ENV\.LOGIN_PASSWORD\}\n/, flow);
      assert.ok(!flow.includes(PASSWORD) && !flow.includes(encodeURIComponent(PASSWORD)));
      assert.match(flow, new RegExp(`email: ${EMAIL}`));

      const { secrets, ids } = recordedValues(text);
      assert.ok(secrets.size >= 5 && ids.size >= 5, `${[...secrets]} ${[...ids]}`);
      assert.deepEqual(literalOutsideComments(flow, ids), [], flow);
      for (const secret of secrets) {
        assert.ok(!flow.includes(secret), `the flow holds ${secret.slice(0, 8)}…\n${flow}`);
      }
      assert.deepEqual(harCheck(text, flow), {
        leaks: [],
        noiseHeaders: [],
        analyticsCookies: [],
        literalIds: [],
      });
    } finally {
      await app.close();
    }
  });
}
