/**
 * OAuthQL (tests/apps/oauthql), an SPA that signs in by OAuth 2 authorization
 * code + PKCE against a local authorization server on another port, then
 * calls a GraphQL API (POST and persisted-query GET) with the bearer token, in
 * the corpus of app shapes: each stored recording (Playwright and chrome-har,
 * re-recorded with `deno task record:apps oauthql`) is converted with default
 * options by the CLI and run by the CLI on a fresh instance with only the
 * variables the flow's header names, the user's password the one secret.
 * Every step must pass, every GraphQL call must succeed, and no recorded
 * token, code, PKCE verifier or challenge, state or server id may be left
 * literal in the flow.
 */
import assert from "node:assert/strict";
import { PASSWORD, startOauthql } from "../apps/oauthql/server.ts";
import {
  assertNothingRecorded,
  assertReplayPassed,
  convertAndReplay,
} from "../support/convert_apps.ts";

const RECORDINGS = new URL("../apps/oauthql/recordings/", import.meta.url);
const SPA = "http://127.0.0.1:8711";
const AUTH = "http://127.0.0.1:8712";

type Entry = {
  request: { method: string; url: string; postData?: { text?: string } };
  response: {
    headers: { name: string; value: string }[];
    content: { text?: string; encoding?: string };
  };
};

/** What a fresh instance or a fresh browser session makes anew: tokens, codes, PKCE, state, ids. */
function recordedValues(har: string): { secrets: Set<string>; ids: Set<string> } {
  const secrets = new Set<string>();
  const ids = new Set<string>();
  for (const e of JSON.parse(har).log.entries as Entry[]) {
    const url = new URL(e.request.url);
    for (const key of ["code", "state", "code_challenge"]) {
      const v = url.searchParams.get(key);
      if (v) secrets.add(v);
    }
    for (const [k, v] of new URLSearchParams(e.request.postData?.text ?? "")) {
      if (/^(code|code_verifier|refresh_token)$/.test(k)) secrets.add(v);
    }
    for (const h of e.response.headers) {
      if (h.name.toLowerCase() === "location" && URL.canParse(h.value, e.request.url)) {
        const to = new URL(h.value, e.request.url);
        for (const key of ["code", "state"]) {
          const v = to.searchParams.get(key);
          if (v) secrets.add(v);
        }
      }
      if (h.name.toLowerCase() === "set-cookie") secrets.add(h.value.split(";")[0].split("=")[1]);
    }
    let text = e.response.content.text ?? "";
    if (e.response.content.encoding === "base64") text = atob(text);
    for (const m of text.matchAll(/"(?:access_token|refresh_token)":"([^"]+)"/g)) secrets.add(m[1]);
    for (const m of text.matchAll(/name="(?:txn|csrf)" value="([^"]+)"/g)) secrets.add(m[1]);
    for (const m of text.matchAll(/"(?:id|endCursor|cursor)":"([^"]+)"/g)) ids.add(m[1]);
  }
  return { secrets, ids };
}

for (const recording of ["journey.pw.har", "journey.cdp.har"]) {
  Deno.test(`oauthql ${recording}: the default conversion passes on a fresh instance`, async () => {
    const har = new URL(recording, RECORDINGS).pathname;
    const text = await Deno.readTextFile(har);
    const app = startOauthql();
    try {
      const replay = await convertAndReplay(
        har,
        (recorded) => recorded === AUTH ? app.auth : recorded === SPA ? app.origin : recorded,
        (name) => name === "LOGIN_PASSWORD" ? PASSWORD : undefined,
      );
      assertReplayPassed(replay);
      const { flow } = replay;
      // The whole journey reached the fresh instance, and the API answered no call with errors.
      for (
        const call of [
          "GET auth/authorize",
          "POST auth/login",
          "POST auth/consent",
          "POST auth/token",
          "POST /graphql CreateProject",
          "GET /graphql ProjectTasks",
          "POST /graphql CompleteTask",
          "POST /graphql Project",
        ]
      ) assert.ok(app.calls.includes(call), `${call} was not sent\n${flow}`);
      assert.equal(app.calls.filter((c) => c === "POST auth/token").length, 2, flow);
      assert.deepEqual(app.errors, [], flow);
      assert.deepEqual(
        Object.keys(replay.env).filter((n) => !/BASE_URL/.test(n)),
        ["LOGIN_PASSWORD"],
        flow,
      );
      assert.ok(!flow.includes(PASSWORD) && !flow.includes(encodeURIComponent(PASSWORD)));

      assertNothingRecorded(flow, text, recordedValues(text), { secrets: 10, ids: 6 });
    } finally {
      await app.close();
    }
  });
}
