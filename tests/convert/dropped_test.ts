/**
 * What `convert har` drops of the app's own traffic is named in its summary
 * (issue 38, "Done when"): for the app's hosts, each page, failed request,
 * redirect, excluded request, websocket and credentialed beacon it left out,
 * by method and path (no query: it may hold a code or a signature), grouped by
 * reason, at most 10 named per reason and the rest counted. Static assets,
 * preflights and other sites stay a count.
 *
 * Proven on Formapp and OAuthQL's stored recordings (Playwright and
 * chrome-har) and on a hand-made SPA recording of another shape
 * (`tests/fixtures/har/ledger_dropped.har`: fifteen pages and a redirect, a
 * stream cut off with status 0, a health check dropped by `--exclude-url`, a
 * `text/plain` beacon sent with the session cookie and one without, an
 * invoice preview fetched as an image with the session cookie, a websocket, a
 * preflight, static assets, a chat widget on another site).
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { runCli } from "../support/cli.ts";
import { userEnv } from "../support/convert_apps.ts";

const APPS = new URL("../apps/", import.meta.url).pathname;
const FIXTURES = new URL("../fixtures/har/", import.meta.url).pathname;

/** The summary's lines naming what was dropped on the app's hosts, in order, and the lines around them. */
async function droppedLines(har: string, ...args: string[]): Promise<string[]> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-dropped-" });
  try {
    const out = await runCli(["convert", "har", har, "-o", `${dir}/flow.yaml`, ...args]);
    assert.equal(out.code, 0, out.stderr);
    const lines = out.stderr.split("\n");
    const from = lines.findIndex((l) => /^Dropped \d+: /.test(l));
    const to = lines.findIndex((l) => l.startsWith("Replaced "));
    assert.ok(from >= 0 && to > from, out.stderr);
    // The named lines come right after the counts, before what was replaced.
    return lines.slice(from + 1, to);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("the summary names the pages and the cut-off long-poll dropped on Formapp's host", async () => {
  const [pw, cdp] = await Promise.all([
    droppedLines(`${APPS}formapp/recordings/journey.pw.har`),
    droppedLines(`${APPS}formapp/recordings/journey.cdp.har`),
  ]);
  assert.deepEqual(pw, [
    "Dropped as HTML document on the app's hosts (1): GET /login.",
    "Dropped as failed (no HTTP status) on the app's hosts (1): GET /api/workspaces/ws_f8b072c2e8/changes.",
  ]);
  // chrome-har leaves the cut-off long-poll out; its preflight went to the telemetry host.
  assert.deepEqual(cdp, ["Dropped as HTML document on the app's hosts (1): GET /login."]);
});

Deno.test("the summary names OAuthQL's dropped pages with their origins: the app is on two hosts", async () => {
  const [pw, cdp] = await Promise.all([
    droppedLines(`${APPS}oauthql/recordings/journey.pw.har`),
    droppedLines(`${APPS}oauthql/recordings/journey.cdp.har`),
  ]);
  const expected = [
    "Dropped as HTML document on the app's hosts (2): GET http://127.0.0.1:8711/, GET http://127.0.0.1:8711/callback.",
  ];
  // The callback's `code` and `state` are in its query, which is never shown.
  assert.deepEqual(pw, expected);
  assert.deepEqual(cdp, expected);
});

Deno.test("every reason a request of the app's own hosts was dropped for is named; at most 10 per reason", async () => {
  const lines = await droppedLines(
    `${FIXTURES}ledger_dropped.har`,
    "--exclude-url",
    "/api/health",
  );
  assert.deepEqual(lines, [
    "Dropped as HTML document on the app's hosts (15): GET /, GET /old-invoices, GET /invoices ×3, GET /customers, GET /settings, GET /settings/billing, GET /settings/team, GET /help, GET /reports, GET /reports/2025, and 3 more.",
    "Dropped as analytics, though sent with the app's credentials, on the app's hosts (1): POST /api/track.",
    "Dropped by --exclude-url on the app's hosts (1): GET /api/health.",
    "Dropped as failed (no HTTP status) on the app's hosts (1): GET /api/invoices/stream.",
    "Dropped as static asset, though fetched with the app's credentials, on the app's hosts (1): GET /api/invoices/inv_9c2a77e1/preview.",
    "Dropped as websocket on the app's hosts (1): GET /live.",
  ]);
});

/*
 * Uploads whose body the browser did not keep (Chromium records no part of a
 * multipart body): the fields are read from the form in the recorded page
 * that posted it, so the flow sends what the form sends. Proven on Photoapp
 * (below: a Django-shaped form with no action, recorded from a live instance
 * and replayed on a fresh one) and a Rails-shaped recording
 * (`tests/fixtures/har/uploads/`: kept out of the folder's every-fixture
 * test, which loads flows without the files they send); Formapp's upload,
 * sent by a script with `FormData`, keeps one file field and the note.
 */

/**
 * Photoapp, a small server-rendered app (Django-shaped) with a plain HTML
 * upload form: `GET /photos/new` starts a session (`sessionid`) and renders
 * a form with no action (it posts to its own page), a hidden
 * `csrfmiddlewaretoken` (one per session), a `title` with a default, an
 * `album` select, a `description` textarea and a `photo` file input. The
 * `POST` needs the session, its token and a non-empty `photo`; `GET
 * /api/photos` lists the session's photos. Every instance makes new ids.
 */
function startPhotoapp(): { origin: string; close: () => Promise<void> } {
  const sessions = new Map<string, { token: string; photos: { title: string; album: string }[] }>();
  const fresh = () => crypto.randomUUID().replaceAll("-", "");
  const sid = (req: Request) =>
    /(?:^|; )sessionid=(\w+)/.exec(req.headers.get("cookie") ?? "")?.[1];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const session = sessions.get(sid(req) ?? "");
    if (req.method === "GET" && url.pathname === "/photos/new") {
      const id = fresh();
      const token = `${fresh()}${fresh()}`.slice(0, 48);
      sessions.set(id, { token, photos: [] });
      const page = `<!doctype html><title>New photo</title>
<form method="post" enctype="multipart/form-data">
  <input type="hidden" name="csrfmiddlewaretoken" value="${token}">
  <p><label>Title <input type="text" name="title" maxlength="80" value="Untitled" required></label></p>
  <p><select name="album"><option value="inbox">Inbox</option><option value="travel">Travel</option></select></p>
  <p><textarea name="description" rows="3"></textarea></p>
  <p><input type="file" name="photo" accept="image/png" required></p>
  <button type="submit">Upload</button>
</form>`;
      return new Response(page, {
        headers: {
          "content-type": "text/html; charset=utf-8",
          "set-cookie": `sessionid=${id}; Path=/; HttpOnly; SameSite=Lax`,
        },
      });
    }
    if (req.method === "POST" && url.pathname === "/photos/new") {
      if (!session) return new Response("no session", { status: 403 });
      const form = await req.formData().catch(() => undefined);
      const photo = form?.get("photo");
      if (form?.get("csrfmiddlewaretoken") !== session.token) {
        return new Response("CSRF verification failed", { status: 403 });
      }
      if (!(photo instanceof File) || photo.size === 0 || typeof form.get("title") !== "string") {
        return new Response("a photo and a title are required", { status: 400 });
      }
      session.photos.push({ title: String(form.get("title")), album: String(form.get("album")) });
      return new Response(null, { status: 302, headers: { location: "/photos" } });
    }
    if (req.method === "GET" && url.pathname === "/api/photos") {
      if (!session) return Response.json({ error: "sign in" }, { status: 401 });
      return Response.json({ photos: session.photos });
    }
    return new Response("not found", { status: 404 });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/**
 * Fills Photoapp's form as a person does, and writes the HAR Chromium would:
 * the page, then the form's `POST` with its multipart content type and no
 * `postData` (Chromium keeps no part of an upload), then the API call.
 */
async function recordPhotoapp(origin: string): Promise<string> {
  const started = Date.parse("2026-05-02T10:00:00.000Z");
  const entries: unknown[] = [];
  const add = (
    method: string,
    path: string,
    headers: [string, string][],
    res: Response,
    body: string,
    type: string,
  ) =>
    entries.push({
      startedDateTime: new Date(started + entries.length * 500).toISOString(),
      time: 12,
      request: {
        method,
        url: origin + path,
        httpVersion: "HTTP/1.1",
        queryString: [],
        cookies: [],
        headers: headers.map(([name, value]) => ({ name, value })),
        headersSize: -1,
        bodySize: method === "POST" ? 211 : 0,
      },
      response: {
        status: res.status,
        statusText: "",
        httpVersion: "HTTP/1.1",
        cookies: [],
        headers: [...res.headers].map(([name, value]) => ({ name, value })),
        content: { size: body.length, mimeType: res.headers.get("content-type") ?? "", text: body },
        redirectURL: res.headers.get("location") ?? "",
        headersSize: -1,
        bodySize: -1,
      },
      cache: {},
      timings: { send: 1, wait: 10, receive: 1 },
      _resourceType: type,
    });
  const page = await fetch(`${origin}/photos/new`);
  const html = await page.text();
  add("GET", "/photos/new", [], page, html, "document");
  const cookie = page.headers.get("set-cookie")!.split(";")[0];
  const form = new FormData();
  form.set("csrfmiddlewaretoken", /name="csrfmiddlewaretoken" value="(\w+)"/.exec(html)![1]);
  form.set("title", "Harbour at dusk");
  form.set("album", "travel");
  form.set("description", "");
  form.set("photo", new File(["\x89PNG fake"], "harbour.png", { type: "image/png" }));
  const request = new Request(`${origin}/photos/new`, { method: "POST", body: form });
  const type = request.headers.get("content-type")!;
  const posted = await fetch(request.url, {
    method: "POST",
    body: await request.arrayBuffer(),
    redirect: "manual",
    headers: { cookie, "content-type": type },
  });
  assert.equal(posted.status, 302, await posted.clone().text());
  add(
    "POST",
    "/photos/new",
    [["Cookie", cookie], ["Content-Type", type]],
    posted,
    await posted.text(),
    "document",
  );
  const list = await fetch(`${origin}/api/photos`, {
    headers: { cookie, accept: "application/json" },
  });
  const json = await list.text();
  assert.match(json, /Harbour at dusk/);
  add(
    "GET",
    "/api/photos",
    [["Cookie", cookie], ["Accept", "application/json"]],
    list,
    json,
    "fetch",
  );
  return JSON.stringify({
    log: { version: "1.2", creator: { name: "Playwright-shaped (test)", version: "1" }, entries },
  });
}

Deno.test("an upload posted by a plain HTML form sends the form's fields, and replays on a fresh instance", async () => {
  const recorded = startPhotoapp();
  const fresh = startPhotoapp();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-upload-form-" });
  try {
    await Deno.writeTextFile(`${dir}/photo.har`, await recordPhotoapp(recorded.origin));
    const converted = await runCli([
      "convert",
      "har",
      `${dir}/photo.har`,
      "-o",
      `${dir}/flow.yaml`,
    ]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    const upload = parse(flow).steps.find((s: { request: { method: string } }) =>
      s.request.method === "POST"
    );
    assert.deepEqual(Object.keys(upload.request.multipart), [
      "csrfmiddlewaretoken",
      "title",
      "album",
      "description",
      "photo",
    ], flow);
    assert.match(
      upload.request.multipart.csrfmiddlewaretoken,
      /^\$\{steps\.open_new\.capture\.\w+\}$/,
      flow,
    );
    assert.equal(upload.request.multipart.title, "Untitled");
    assert.equal(upload.request.multipart.album, "inbox");
    assert.deepEqual(upload.request.multipart.photo, { file: "uploads/upload.png" });
    const notes = converted.stderr.split("\n").filter((l) =>
      /upload/i.test(l) && l.startsWith("note:")
    );
    assert.equal(notes.length, 1, converted.stderr);
    assert.equal(
      notes[0],
      "note: Uploads send files from beside the flow: uploads/upload.png (step \"new\", a placeholder; the recording holds none of the body, not even the file's name (sent as the file's base name unless the part gives `filename`: set the one the server expects): its fields are the form's on GET /photos/new, and description is sent empty as the page had it (fill in what was typed, if anything)); the recording does not hold an upload's content, so each placeholder file must be replaced by a real one.",
    );
    const env = userEnv(flow, fresh.origin, () => undefined);
    const run = await runCli(["run", `${dir}/flow.yaml`], { env });
    assert.equal(run.code, 0, `${flow}\n${run.stdout}\n${run.stderr}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await recorded.close();
    await fresh.close();
  }
});

Deno.test("a Rails-shaped multipart form: token captured from the page, defaults, the checked box, no disabled field", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-upload-rails-" });
  try {
    const out = await runCli([
      "convert",
      "har",
      `${FIXTURES}uploads/rails_form_upload.har`,
      "-o",
      `${dir}/flow.yaml`,
    ]);
    assert.equal(out.code, 0, out.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    const upload = parse(flow).steps.find((s: { request: { method: string } }) =>
      s.request.method === "POST"
    );
    const token = upload.request.multipart.authenticity_token;
    assert.match(token, /^\$\{steps\.open_new\.capture\.\w+\}$/, flow);
    assert.deepEqual({ ...upload.request.multipart, authenticity_token: "" }, {
      authenticity_token: "",
      // Optional and left empty by the page: sent empty, as an untouched field is.
      "attachment[caption]": "",
      "attachment[file]": { file: "uploads/upload.pdf" },
      "attachment[visibility]": "private",
      "attachment[notes]": "Scanned copy",
      "attachment[pinned]": "1",
      commit: "Upload",
    }, flow);
    assert.ok(!flow.includes("q7Vw2+Hc9LmZ0pXr4YtB1sNd8eKf6gJa3uRi5oTy"), flow);
    assert.ok(
      out.stderr.includes(
        "note: Uploads send files from beside the flow: uploads/upload.pdf (step \"create_note_attachment\", a placeholder; the recording holds none of the body, not even the file's name (sent as the file's base name unless the part gives `filename`: set the one the server expects): its fields are the form's on GET /notes/12/attachments/new, and attachment[caption] is sent empty as the page had it (fill in what was typed, if anything));",
      ),
      out.stderr,
    );
    assert.deepEqual(await Array.fromAsync(Deno.readDir(`${dir}/uploads`), (e) => e.name), [
      "upload.pdf",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Formapp's upload sent by a script with FormData keeps one file field and the note", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-upload-script-" });
  try {
    const out = await runCli([
      "convert",
      "har",
      `${APPS}formapp/recordings/journey.pw.har`,
      "-o",
      `${dir}/flow.yaml`,
    ]);
    assert.equal(out.code, 0, out.stderr);
    const upload = parse(await Deno.readTextFile(`${dir}/flow.yaml`)).steps.find((
      s: { name: string },
    ) => s.name === "create_note_attachment");
    assert.deepEqual(upload.request.multipart, { file: { file: "uploads/upload.bin" } });
    assert.match(
      out.stderr,
      /a placeholder; the recording holds none of the body, not even the file's name \(sent as the file's base name unless the part gives `filename`: set the one the server expects\), so check the form's field names/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
