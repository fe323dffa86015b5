/**
 * Classes of values a recording hands from one request to the next, proven on
 * an app shape the converter was not built against (Shelf: a Rails-style JSON
 * API recorded in Firefox's HAR shape, tests/support/shelf_app.ts) and on
 * small hand-made recordings of other frameworks. Taskboard
 * (convert_taskboard_test.ts) is the second case of each rule.
 *
 * - `If-Match` carries the `ETag` of the response that preceded it;
 * - a URL a response handed out whole (a signed link, a redirect
 *   `Location`) is sent whole, its signature never in the flow;
 * - paths, app URLs and ordinary words are not secrets, and script-set
 *   anonymous ids are not required variables;
 * - an upload becomes a `multipart:` body with a placeholder file;
 * - ids inside percent-encoded JSON and base64 cursors are correlated.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { convertHar } from "../../lib/convert/har.ts";
import { runCli } from "../support/cli.ts";
import { recordShelf, SHELF_PASSWORD, startShelf } from "../support/shelf_app.ts";
import { type Files, runTwice } from "../support/run_twice.ts";
import "../support/engines.ts";

/** The request data of a flow: its text without comments. */
const code = (yaml: string) => yaml.split("\n").filter((l) => !/^\s*#/.test(l)).join("\n");

// deno-lint-ignore no-explicit-any
const stepOf = (yaml: string, name: string): any =>
  // deno-lint-ignore no-explicit-any
  parse(yaml).steps.find((s: any) => s.name === name);

Deno.test("Shelf, a Rails-style API recorded in Firefox's shape, converts into a flow that passes on a fresh instance", async () => {
  const recorded = startShelf();
  let har: string;
  try {
    har = await recordShelf(recorded);
  } finally {
    await recorded.close();
  }
  const entries = JSON.parse(har).log.entries;
  const { yaml, summary, files } = convertHar(har) as ReturnType<typeof convertHar> & {
    files: Files;
  };
  // Class 5: no path, URL or word taken for a secret; the script-set anon_id is not required.
  assert.deepEqual(summary.env, ["LOGIN_PASSWORD"], yaml);
  assert.ok(!yaml.includes("RECORDED_SECRET"), yaml);
  assert.ok(!yaml.includes(SHELF_PASSWORD));
  assert.match(code(yaml), /\/dashboard\.json/);
  assert.match(code(yaml), /authenticity_token/);
  // Class 6: If-Match from the ETag of the read before it, then of the write before it.
  const etags = [...code(yaml).matchAll(/if-match: (\S+)/g)].map((m) => m[1]);
  assert.equal(etags.length, 2, yaml);
  assert.notEqual(etags[0], etags[1]);
  assert.ok(etags.every((e) => /^\$\{steps\.\w+\.capture\.etag\}$/.test(e)), etags.join());
  assert.ok(!/if-none-match/i.test(code(yaml)));
  assert.match(yaml, /etag: \{ header: etag \}/);
  // Class 7: signed URLs sent whole; no signature anywhere, comments included.
  for (const e of entries) {
    const url = new URL(e.request.url);
    for (const name of ["X-Amz-Signature", "sig"]) {
      const sig = url.searchParams.get(name);
      if (sig) assert.ok(!yaml.includes(sig), `the flow holds the signature ${sig.slice(0, 8)}…`);
    }
  }
  assert.match(yaml, /location: \{ header: location \}/);
  // Class 9: the note id inside the percent-encoded variables, the cursor handed out whole.
  const noteEntry = entries.find((e: { request: { url: string } }) =>
    e.request.url.includes("operationName=Note")
  );
  const noteId = JSON.parse(new URL(noteEntry.request.url).searchParams.get("variables")!).id;
  assert.ok(!code(yaml).includes(noteId), yaml);
  assert.ok(!code(yaml).includes("eyJhZnRlciI6"), yaml);
  // Class 11: a multipart body with the recorded caption and a placeholder file beside the flow.
  const upload = stepOf(yaml, "create_book_attachment");
  assert.equal(upload.request.multipart.caption, "Cover scan");
  assert.equal(upload.request.multipart.file.file, "uploads/cover-scan.txt");
  assert.equal(upload.request.multipart.file.content_type, "text/plain");
  assert.equal(upload.request.body, undefined);
  assert.equal(upload.request.headers?.["content-type"], undefined);
  assert.deepEqual(files.map((f) => f.path), ["uploads/cover-scan.txt"]);
  assert.equal(summary.notes.filter((n) => /upload/i.test(n)).length, 1, summary.notes.join("\n"));

  const fresh = startShelf();
  try {
    const env = (name: string) =>
      name === "LOGIN_PASSWORD" ? SHELF_PASSWORD : name === "BASE_URL" ? fresh.origin : undefined;
    await runTwice(yaml, files, env);
    // Two conditional writes per run, each accepted; no stale version, no bad signature.
    assert.equal(fresh.calls.filter((c) => /^PUT \/api\/books\/\S+ 200$/.test(c)).length, 4);
    assert.ok(!fresh.calls.some((c) => / (403|412|428)$/.test(c)), fresh.calls.join("\n"));
  } finally {
    await fresh.close();
  }
});

const at = (s: number) => new Date(Date.UTC(2026, 10, 21, 10, 0, s)).toISOString();
const jsonContent = (v: unknown) => ({
  mimeType: "application/json",
  text: typeof v === "string" ? v : JSON.stringify(v),
});
type Entry = {
  method?: string;
  url: string;
  headers?: [string, string][];
  body?: unknown;
  status?: number;
  response?: unknown;
  responseHeaders?: [string, string][];
};
const har = (list: Entry[]) =>
  JSON.stringify({
    log: {
      entries: list.map((e, i) => ({
        startedDateTime: at(i),
        _resourceType: "fetch",
        request: {
          method: e.method ?? "GET",
          url: e.url,
          headers: (e.headers ?? []).map(([name, value]) => ({ name, value })),
          ...(e.body !== undefined ? { postData: jsonContent(e.body) } : {}),
        },
        response: {
          status: e.status ?? 200,
          headers: (e.responseHeaders ?? []).map(([name, value]) => ({ name, value })),
          content: jsonContent(e.response ?? {}),
        },
      })),
    },
  });

Deno.test("If-Match carries the ETag of the response before it (Django REST shape, strong ETags, a DELETE)", async () => {
  const recorded = har([
    {
      method: "POST",
      url: "https://api.notes.test/api/notes/",
      body: { text: "hello" },
      status: 201,
      response: { pk: 4812, text: "hello" },
      responseHeaders: [["ETag", '"c0a1e5"']],
    },
    {
      url: "https://api.notes.test/api/notes/4812/",
      headers: [["If-None-Match", '"c0a1e5"']],
      response: { pk: 4812, text: "hello" },
      responseHeaders: [["etag", '"c0a1e5"']],
    },
    {
      method: "PATCH",
      url: "https://api.notes.test/api/notes/4812/",
      headers: [["If-Match", '"c0a1e5"'], ["content-type", "application/json"]],
      body: { text: "hello there" },
      response: { pk: 4812, text: "hello there" },
      responseHeaders: [["ETag", '"77d0b3"']],
    },
    {
      method: "DELETE",
      url: "https://api.notes.test/api/notes/4812/",
      headers: [["If-Match", '"77d0b3"']],
      status: 204,
    },
  ]);
  const { yaml } = convertHar(recorded);
  assert.equal(
    stepOf(yaml, "update_note").request.headers["if-match"],
    "${steps.get_note.capture.etag}",
  );
  assert.equal(
    stepOf(yaml, "delete_note").request.headers["if-match"],
    "${steps.update_note.capture.etag}",
  );
  assert.equal(stepOf(yaml, "get_note").request.headers?.["if-none-match"], undefined);

  const notes = new Map<number, { text: string; etag: string }>();
  let next = 100 + Math.floor(Math.random() * 1000);
  const tag = () => `"${crypto.randomUUID().slice(0, 6)}"`;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const id = Number(new URL(req.url).pathname.split("/")[3]);
    if (req.method === "POST") {
      const note = { text: (await req.json()).text, etag: tag() };
      notes.set(next, note);
      return Response.json({ pk: next++, text: note.text }, {
        status: 201,
        headers: { etag: note.etag },
      });
    }
    const note = notes.get(id);
    if (!note) return Response.json({}, { status: 404 });
    if (req.method === "GET") {
      return Response.json({ pk: id, ...note }, { headers: { etag: note.etag } });
    }
    const ifMatch = req.headers.get("if-match");
    if (!ifMatch) return Response.json({ detail: "precondition required" }, { status: 428 });
    if (ifMatch !== note.etag) return Response.json({ detail: "stale" }, { status: 412 });
    if (req.method === "DELETE") {
      notes.delete(id);
      return new Response(null, { status: 204 });
    }
    note.text = (await req.json()).text;
    note.etag = tag();
    return Response.json({ pk: id, text: note.text }, { headers: { etag: note.etag } });
  });
  try {
    const origin = `http://127.0.0.1:${server.addr.port}`;
    await runTwice(yaml, [], (n) => n === "BASE_URL" ? origin : undefined);
  } finally {
    await server.shutdown();
  }
});

Deno.test("a download URL handed out in a job result is sent whole (Laravel shape: absolute, signature and expiry)", () => {
  const signed =
    "https://files.jobs.test/storage/exports/q3.xlsx?expires=1763719200&signature=4be0e1d6c1f2a9b8d7e6f5a4b3c2d1e0";
  const { yaml } = convertHar(
    har([
      {
        method: "POST",
        url: "https://jobs.test/api/exports",
        body: { kind: "q3" },
        status: 202,
        response: { job: "job_8d2f1a" },
      },
      {
        url: "https://jobs.test/api/jobs/job_8d2f1a",
        response: { state: "done", result: { download: signed } },
      },
      { url: signed, response: { ok: true } },
    ]),
    { includeHosts: ["jobs.test", "files.jobs.test"] },
  );
  assert.ok(!yaml.includes("4be0e1d6c1f2"), yaml);
  const download = parse(yaml).steps.at(-1);
  assert.equal(download.request.url, "${raw:steps.get_job.capture.download}");
  assert.match(yaml, /download: \$\.json\.result\.download/);
});

Deno.test("a recorded path, an app URL or a word is not a secret; a script-set anonymous id is not required", () => {
  const page = `<html><head><meta name="csrf-param" content="authenticity_token">
<meta name="csrf-token" content="Qm9va3NoZWxmLWNzcmYtOTkx"></head><body>
<input type="hidden" name="return_to" value="https://app.shop.test/account/orders">
<input type="hidden" name="next" value="/dashboard"></body></html>`;
  const entries = [
    {
      startedDateTime: at(0),
      request: { method: "GET", url: "https://app.shop.test/signin", headers: [] },
      response: {
        status: 200,
        headers: [{ name: "set-cookie", value: "_shop_session=a81f0c2e9d7b; Path=/" }],
        content: { mimeType: "text/html", text: page },
      },
      _resourceType: "document",
    },
    {
      startedDateTime: at(1),
      _resourceType: "fetch",
      request: {
        method: "POST",
        url: "https://app.shop.test/api/signin",
        headers: [
          { name: "content-type", value: "application/json" },
          { name: "x-csrf-token", value: "Qm9va3NoZWxmLWNzcmYtOTkx" },
          {
            name: "cookie",
            value: "_shop_session=a81f0c2e9d7b; visitor_id=v-7e3a1c99f0; theme=dark-contrast",
          },
        ],
        postData: jsonContent({
          login: "cy@shop.test",
          password: "pw-cy-4431",
          next: "/dashboard",
          return_to: "https://app.shop.test/account/orders",
          authenticity_token: "Qm9va3NoZWxmLWNzcmYtOTkx",
        }),
      },
      response: { status: 200, content: jsonContent({ redirect: "/dashboard" }) },
    },
    {
      startedDateTime: at(2),
      _resourceType: "fetch",
      request: {
        method: "GET",
        url: "https://app.shop.test/dashboard?tab=orders",
        headers: [{ name: "cookie", value: "_shop_session=a81f0c2e9d7b; visitor_id=v-7e3a1c99f0" }],
      },
      response: { status: 200, content: jsonContent({ ok: true }) },
    },
  ];
  const { yaml, summary } = convertHar(JSON.stringify({ log: { entries } }));
  assert.deepEqual(summary.env, ["LOGIN_PASSWORD"], yaml);
  assert.ok(!yaml.includes("RECORDED_SECRET"), yaml);
  const login = stepOf(yaml, "login");
  assert.equal(login.request.body.next, "/dashboard");
  // The app URL is no secret: it follows the base URL, as the page handed it out for this origin.
  assert.equal(login.request.body.return_to, "${vars.base_url}/account/orders");
  assert.match(login.request.body.authenticity_token, /^\$\{steps\.\w+\.capture\.csrf_token\}$/);
  assert.match(login.request.headers.cookie, /visitor_id=v-7e3a1c99f0/);
  assert.match(parse(yaml).steps.at(-1).request.url, /\/dashboard\?tab=orders$/);
});

Deno.test("uploads from Chrome text and Firefox params become multipart bodies with one note for all", () => {
  const mime = "multipart/form-data; boundary=----WebKitFormBoundaryX7a";
  const chrome = {
    mimeType: mime,
    text:
      '------WebKitFormBoundaryX7a\r\nContent-Disposition: form-data; name="title"\r\n\r\nQ3\r\n' +
      '------WebKitFormBoundaryX7a\r\nContent-Disposition: form-data; name="file"; filename="plan.csv"\r\n' +
      "Content-Type: text/csv\r\n\r\n\r\n------WebKitFormBoundaryX7a--\r\n",
  };
  const firefox = {
    mimeType: mime,
    params: [{ name: "title", value: "Q4" }, { name: "doc", fileName: "../../etc/report 1.pdf" }],
  };
  const entries = [chrome, firefox].map((postData, i) => ({
    startedDateTime: at(i),
    _resourceType: "fetch",
    request: {
      method: "POST",
      url: `https://docs.test/api/uploads/${i}`,
      headers: [{ name: "content-type", value: mime }],
      postData,
    },
    response: { status: 201, content: jsonContent({ ok: true }) },
  }));
  const { yaml, summary, files } = convertHar(JSON.stringify({ log: { entries } })) as
    & ReturnType<typeof convertHar>
    & { files: Files };
  const [a, b] = parse(yaml).steps;
  assert.deepEqual(a.request.multipart, {
    title: "Q3",
    file: { file: "uploads/plan.csv", content_type: "text/csv" },
  });
  assert.deepEqual(b.request.multipart, {
    title: "Q4",
    doc: { file: "uploads/report_1.pdf", filename: "report 1.pdf" },
  });
  assert.deepEqual(files.map((f) => f.path), ["uploads/plan.csv", "uploads/report_1.pdf"]);
  const notes = summary.notes.filter((n) => /upload/i.test(n));
  assert.equal(notes.length, 1, summary.notes.join("\n"));
  assert.match(notes[0], /uploads\/plan\.csv/);
});

Deno.test("convert har -o writes the placeholder file beside the flow, never over an existing one, and the flow runs", async () => {
  const dir = await Deno.makeTempDir();
  let seen = "";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const form = await req.formData();
    const file = form.get("file") as File;
    seen = `${form.get("title")}|${file.name}|${await file.text()}`;
    return Response.json({ ok: true }, { status: 201 });
  });
  try {
    const boundary = "b-42";
    await Deno.writeTextFile(
      `${dir}/s.har`,
      JSON.stringify({
        log: {
          entries: [{
            _resourceType: "fetch",
            request: {
              method: "POST",
              url: "https://docs.test/api/files",
              headers: [{
                name: "content-type",
                value: `multipart/form-data; boundary=${boundary}`,
              }],
              postData: {
                mimeType: `multipart/form-data; boundary=${boundary}`,
                params: [{ name: "title", value: "Plan" }, { name: "file", fileName: "plan.csv" }],
              },
            },
            response: { status: 201, content: jsonContent({ ok: true }) },
          }],
        },
      }),
    );
    await Deno.mkdir(`${dir}/out`);
    const convert = await runCli(["convert", "har", `${dir}/s.har`, "-o", `${dir}/out/f.yaml`]);
    assert.equal(convert.code, 0, convert.stderr);
    assert.match(convert.stderr, /uploads\/plan\.csv/);
    const placeholder = await Deno.readTextFile(`${dir}/out/uploads/plan.csv`);
    assert.match(placeholder, /not recorded/);
    const env = { BASE_URL: `http://127.0.0.1:${server.addr.port}` };
    const run = await runCli(["run", `${dir}/out/f.yaml`], { env });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(seen, `Plan|plan.csv|${placeholder}`);
    // The real file the user put there is kept on a second conversion.
    await Deno.writeTextFile(`${dir}/out/uploads/plan.csv`, "id\n1\n");
    const again = await runCli(["convert", "har", `${dir}/s.har`, "-o", `${dir}/out/f.yaml`]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(await Deno.readTextFile(`${dir}/out/uploads/plan.csv`), "id\n1\n");
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ids inside percent-encoded JSON (Apollo persisted GET) and a base64 cursor are correlated", () => {
  const vars = (v: unknown) => encodeURIComponent(JSON.stringify(v));
  const cursor = btoa(JSON.stringify({ after: 731 }));
  const { yaml } = convertHar(har([
    {
      method: "POST",
      url: "https://gql.test/graphql",
      body: { operationName: "CreateList", query: "mutation { createList { id } }" },
      response: { data: { createList: { id: "lst_71c9e2", pageInfo: { endCursor: cursor } } } },
    },
    {
      url: `https://gql.test/graphql?operationName=ListItems&variables=${
        vars({ listId: "lst_71c9e2", first: 10, after: cursor })
      }&extensions=${vars({ persistedQuery: { version: 1, sha256Hash: "ab12cd34" } })}`,
      response: { data: { list: { items: [] } } },
    },
    {
      url: `https://gql.test/api/items?list=lst_71c9e2&cursor=${encodeURIComponent(cursor)}`,
      response: { items: [] },
    },
  ]));
  const steps = parse(yaml).steps;
  const url = steps[1].request.url as string;
  assert.ok(!url.includes("lst_71c9e2") && !url.includes(cursor.slice(0, 12)), url);
  assert.match(url, /%22listId%22%3A%22\$\{steps\.create_list\.capture\.list_id\}%22/);
  assert.match(url, /end_cursor/);
  assert.match(url, /sha256Hash%22%3A%22ab12cd34/);
  assert.ok(!steps[2].request.url.includes(cursor.slice(0, 12)), steps[2].request.url);
});
