/**
 * Splitapi (tests/apps/splitapi), an SPA whose JSON API is on a second
 * origin, in the corpus of app shapes: CORS preflights before every call,
 * refresh-token rotation with reuse detection (the second refresh must send
 * the token the first returned), ids handed out only in a `201`'s
 * `Location` header and then sent in paths and bodies, and pagination by a
 * `Link: <…>; rel="next"` header with a cursor signed per instance. Each
 * stored recording (Playwright and chrome-har, re-recorded with
 * `deno task record:apps splitapi`) is converted with default options by
 * the CLI and run by the CLI on a fresh instance with only the variables
 * the flow's header names; every step must pass, the API must answer no
 * error, and no recorded token, id or cursor may be left literal.
 */
import assert from "node:assert/strict";
import { PASSWORD, startSplitapi } from "../apps/splitapi/server.ts";
import {
  assertNothingRecorded,
  assertReplayPassed,
  convertAndReplay,
} from "../support/convert_apps.ts";

const RECORDINGS = new URL("../apps/splitapi/recordings/", import.meta.url);
const PAGE = "http://127.0.0.1:8741";
const API = "http://127.0.0.1:8742";

type Entry = {
  request: { method: string; url: string };
  response: { headers: { name: string; value: string }[]; content: { text?: string } };
};

/** What a fresh instance makes anew: tokens, the ids in `Location`s and the cursor in `Link`. */
function recordedValues(har: string): { secrets: Set<string>; ids: Set<string> } {
  const secrets = new Set<string>();
  const ids = new Set<string>();
  for (const e of JSON.parse(har).log.entries as Entry[]) {
    for (const m of (e.response.content.text ?? "").matchAll(/"(?:\w+_token)":"([^"]+)"/g)) {
      secrets.add(m[1]);
    }
    for (const h of e.response.headers) {
      const name = h.name.toLowerCase();
      if (name === "location") {
        for (const m of h.value.matchAll(/(?:brd|crd)_\w+/g)) ids.add(m[0]);
      }
      if (name === "link") ids.add(/cursor=([^>&]+)/.exec(h.value)![1]);
    }
  }
  return { secrets, ids };
}

for (const recording of ["journey.pw.har", "journey.cdp.har"]) {
  Deno.test(`splitapi ${recording}: the default conversion passes on a fresh instance`, async () => {
    const har = new URL(recording, RECORDINGS).pathname;
    const text = await Deno.readTextFile(har);
    const app = startSplitapi();
    try {
      const replay = await convertAndReplay(
        har,
        (recorded) => recorded === API ? app.api : recorded === PAGE ? app.origin : recorded,
        (name) => name === "LOGIN_PASSWORD" ? PASSWORD : undefined,
      );
      assertReplayPassed(replay);
      const { flow } = replay;
      assert.deepEqual(app.errors, [], flow);
      // The whole journey reached the API, without the preflights only a browser sends.
      assert.equal(app.calls.filter((c) => c === "POST /v1/session/refresh").length, 2, flow);
      assert.equal(app.calls.filter((c) => /^GET \/v1\/boards\/\w+\/cards$/.test(c)).length, 2);
      assert.ok(app.calls.some((c) => /^PATCH \/v1\/boards\/\w+\/cards\/\w+$/.test(c)), flow);
      assert.ok(!app.calls.some((c) => c.startsWith("OPTIONS")), app.calls.join("\n"));
      assert.deepEqual(
        Object.keys(replay.env).filter((n) => !/BASE_URL/.test(n)),
        ["LOGIN_PASSWORD"],
        flow,
      );
      assertNothingRecorded(flow, text, recordedValues(text), { secrets: 6, ids: 5 });
    } finally {
      await app.close();
    }
  });
}
