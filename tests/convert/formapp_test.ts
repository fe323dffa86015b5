/**
 * Formapp (tests/apps/formapp), a server-rendered app with an HTML form
 * login, in the corpus of app shapes: each stored recording (Playwright and
 * chrome-har, re-recorded with `deno task record:apps formapp`) is converted
 * with default options by the CLI and run by the CLI on a fresh instance with
 * only the variables the flow's header names. Every step must pass, no
 * telemetry call may be sent, and no recorded secret, CSRF token, session
 * cookie, page-embedded key, ETag, download signature or server id may be
 * left literal in the flow. The note update needs `If-Match` from the read
 * before it, the upload a file, the download its URL as the export job
 * handed it out, and the long-poll the sign-out cut off is dropped, never
 * written as `status: -1` (a first test shows the app refuses each mistake).
 */
import assert from "node:assert/strict";
import { EMAIL, PASSWORD, startFormapp } from "../apps/formapp/server.ts";
import {
  assertNothingRecorded,
  assertReplayPassed,
  convertAndReplay,
} from "../support/convert_apps.ts";

const RECORDINGS = new URL("../apps/formapp/recordings/", import.meta.url);

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
    for (const m of text.matchAll(/"id":"((?:exp|att)_\w+)"/g)) ids.add(m[1]);
    for (const h of e.response.headers) if (h.name.toLowerCase() === "etag") secrets.add(h.value);
    const sig = new URL(e.request.url).searchParams.get("sig");
    if (sig) secrets.add(sig);
  }
  return { secrets, ids };
}

/** Signs in through the form as the browser does; the API headers and the workspace. */
async function signIn(origin: string) {
  const jar = new Map<string, string>();
  const send = async (path: string, init: RequestInit = {}) => {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await fetch(origin + path, {
      redirect: "manual",
      ...init,
      headers: { cookie, ...init.headers as Record<string, string> },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    }
    return res;
  };
  const form = await (await send("/login")).text();
  const token = /name="authenticity_token" value="([^"]+)"/.exec(form)![1];
  const login = await send("/login", {
    method: "POST",
    body: new URLSearchParams({ authenticity_token: token, email: EMAIL, password: PASSWORD }),
  });
  assert.equal(login.status, 303);
  const page = await (await send("/dashboard")).text();
  const csrf = /name="csrf-token" content="([^"]+)"/.exec(page)![1];
  const key = /"sessionKey":"([^"]+)"/.exec(page)![1];
  const ws = /data-workspace="([^"]+)"/.exec(page)![1];
  const api = (path: string, init: RequestInit = {}) =>
    send(path, {
      ...init,
      headers: { "x-csrf-token": csrf, "x-session-key": key, ...init.headers },
    });
  return { api, ws, send };
}

Deno.test("formapp refuses what a conversion must get right: If-Match, the signature", async () => {
  const app = startFormapp();
  try {
    const { api, ws, send } = await signIn(app.origin);
    const created = await api(`/api/workspaces/${ws}/notes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "Groceries" }),
    });
    const { id } = await created.json();
    const read = await api(`/api/notes/${id}`);
    await read.body?.cancel();
    const etag = read.headers.get("etag")!;
    assert.match(etag, /^"\w+"$/);
    const patch = (ifMatch?: string) =>
      api(`/api/notes/${id}`, {
        method: "PATCH",
        headers: { "content-type": "application/json", ...ifMatch ? { "if-match": ifMatch } : {} },
        body: JSON.stringify({ title: "Groceries for Sunday" }),
      }).then(async (r) => (await r.body?.cancel(), r.status));
    assert.equal(await patch(), 428);
    assert.equal(await patch('"stale"'), 412);
    assert.equal(await patch(etag), 200);
    assert.equal(await patch(etag), 412, "the ETag changes with the note");

    const upload = new FormData();
    upload.append("caption", "Itinerary");
    const empty = await api(`/api/notes/${id}/attachments`, { method: "POST", body: upload });
    assert.equal(empty.status, 422, await empty.text());
    upload.append("file", new File(["Day 1"], "day.txt"));
    const attached = await api(`/api/notes/${id}/attachments`, { method: "POST", body: upload });
    assert.equal(attached.status, 201, await attached.text());

    const job = await (await api(`/api/workspaces/${ws}/exports`, { method: "POST" })).json();
    let done: { download_url?: string } = {};
    for (let i = 0; i < 20 && !done.download_url; i++) {
      await new Promise((ok) => setTimeout(ok, 50));
      done = await (await api(`/api/exports/${job.id}`)).json();
    }
    const url = done.download_url!;
    assert.match(url, /^\/files\/exports\/exp_\w+\.csv\?exp=\d+&sig=[0-9a-f]{64}$/);
    const get = (u: string) => send(u).then(async (r) => (await r.body?.cancel(), r.status));
    assert.equal(await get(url), 200);
    const tampered = [
      url.replace(/sig=./, (m) => m.endsWith("0") ? "sig=1" : "sig=0"),
      url.replace(/exp=(\d+)/, (_, n) => `exp=${Number(n) + 60}`),
      url.replace(/sig=.*/, "sig="),
    ];
    for (const u of tampered) assert.equal(await get(u), 403, u);
    // Another instance's key: the recorded signature is worth nothing to a fresh instance.
    const other = startFormapp();
    try {
      const res = await fetch(other.origin + url);
      await res.body?.cancel();
      assert.equal(res.status, 403);
    } finally {
      await other.close();
    }
  } finally {
    await app.close();
  }
});

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
      assertReplayPassed(replay);
      const { flow } = replay;
      // The journey's own requests reached the fresh instance, telemetry none.
      for (
        const call of [
          "GET /login",
          "POST /login",
          "GET /dashboard",
          "PATCH /api/notes/",
          "GET /files/exports/",
          "POST /logout",
        ]
      ) {
        assert.ok(app.calls.some((c) => c.startsWith(call)), `${call} was not sent\n${flow}`);
      }
      assert.ok(app.calls.some((c) => /^POST \/api\/notes\/\d+\/attachments$/.test(c)));
      assert.deepEqual(app.attachments.map((a) => a.filename), ["upload.bin"], flow);
      // The CSRF header and the sign-out form's token come from the page, never from the
      // `fa_csrf` cookie: the server percent-encodes the cookie when a token holds `+`, `/` or
      // `=`, so its text equals the page's token only by chance (as in these recordings).
      assert.doesNotMatch(
        flow,
        /(x-csrf-token|authenticity_token): \$\{steps\.\w+\.capture\.fa_csrf\}/,
      );
      const headers = flow.match(/x-csrf-token: .*/g) ?? [];
      assert.ok(headers.length >= 10, flow);
      for (const h of headers) {
        assert.equal(h, "x-csrf-token: ${steps.open_dashboard.capture.csrf_token}", flow);
      }
      // If-Match from the ETag of the read before the write (class 6).
      assert.match(flow, /\n {8}if-match: \$\{steps\.get_note\.capture\.etag\}\n/, flow);
      // The upload as multipart with a placeholder file, one note about it (class 11).
      assert.match(flow, /\n {6}multipart:\n {8}file: \{ file: uploads\/upload\.bin \}\n/, flow);
      const notes = replay.converted.stderr.split("\n").filter((l) => l.startsWith("note:"));
      assert.equal(notes.filter((n) => /upload/i.test(n)).length, 1, replay.converted.stderr);
      // The signed download URL as the export job handed it out, whole (class 7).
      assert.match(
        flow,
        /url: \$\{vars\.base_url\}\$\{raw:steps\.get_export\.capture\.download_url\}/,
      );
      // The long-poll the sign-out cut off is dropped and counted (class 1); chrome-har leaves
      // a request that never got a response out of the recording.
      assert.ok(!flow.includes("/changes"), flow);
      assert.equal(
        /failed \(no HTTP status\) 1\b/.test(replay.converted.stderr),
        recording === "journey.pw.har",
        replay.converted.stderr,
      );
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

      assertNothingRecorded(flow, text, recordedValues(text), { secrets: 5, ids: 5 });
    } finally {
      await app.close();
    }
  });
}
