/**
 * `convert har` on a server-rendered app whose page links a value escaped into a path segment:
 * an accounting journal's web UI (hledger-web 1.25, docs/real-servers-har.md) links its edit page
 * as `/edit/%2Fsrv%2F…%2Fledger.journal`, the journal file's full path, which differs on every
 * instance kept in another folder. The flow sent the recorded path and the edit page answered 404
 * on a fresh instance. The page the user opened before linked that exact path: the segment is
 * captured from the link (matched by the path around it) and sent as the page wrote it, escapes
 * and all; a route word the page links too (`/manage`) stays as recorded.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const AT = "http://127.0.0.1:5000";

/** The manage page of an instance whose journal is `file`: a link to edit it. */
const managePage = (origin: string, file: string) =>
  `<html><body><a href="${origin}/journal">Journal</a>` +
  `<a class="btn" href="${origin}/edit/${encodeURIComponent(file)}">edit</a></body></html>`;

/** A stand-in that edits only its own journal, named by its full path. */
function standIn(file: string) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const html = (text: string, status = 200) =>
      new Response(text, { status, headers: { "content-type": "text/html" } });
    if (url.pathname === "/manage") return html(managePage(url.origin, file));
    if (url.pathname !== `/edit/${encodeURIComponent(file)}`) return html("<p>Not Found</p>", 404);
    if (req.method === "GET") return html('<form method="post"><textarea name="f1">');
    const form = new URLSearchParams(await req.text());
    return form.get("f1") ? html("<p>Saved</p>") : html("<p>Bad</p>", 400);
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** The recording: the manage page, the edit page it links, the edit saved. */
function recording(file: string): string {
  const edit = `${AT}/edit/${encodeURIComponent(file)}`;
  return harOf([
    { url: `${AT}/manage`, html: managePage(AT, file) },
    { url: edit, html: '<form method="post"><textarea name="f1">' },
    {
      method: "POST",
      url: edit,
      mime: "application/x-www-form-urlencoded",
      body: "f1=2026-11-20%20Groceries",
      html: "<p>Saved</p>",
    },
  ]);
}

Deno.test("convert har: a path segment an earlier page linked escaped is captured from the link, and the flow passes twice on an instance whose link differs", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-linked-path-" });
  const app = standIn("/srv/b7/ledger.journal");
  try {
    const { flow } = await convertHar(dir, recording("/srv/a1/ledger.journal"));
    const sent = flow.split("\n").filter((line) => !/^\s*#/.test(line)).join("\n");
    assert.ok(!/url: .*a1%2Fledger/.test(sent), flow);
    assert.match(sent, /url: \$\{vars\.base_url\}\/manage\n/, flow);
    for (const n of [1, 2]) {
      const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: app.origin } });
      assert.equal(run.code, 0, `run ${n}: ${run.stdout}\n${flow}`);
    }
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** A stand-in whose list page names its file in a relative form action, the segment mid-path. */
function renamer(file: string) {
  const action = `/files/${encodeURIComponent(file)}/rename`;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/files") {
      const page = `<form method="post" action="${action}"><input name="to"></form>`;
      return new Response(page, { headers: { "content-type": "text/html" } });
    }
    return new Response(path === action ? "<p>Renamed</p>" : "<p>Not Found</p>", {
      status: path === action ? 200 : 404,
      headers: { "content-type": "text/html" },
    });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("convert har: an escaped segment in the middle of a relative form action is captured from the page too", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-linked-action-" });
  const app = renamer("Harbour notes (b7).txt");
  try {
    const action = `/files/${encodeURIComponent("Harbour notes (a1).txt")}/rename`;
    const { flow } = await convertHar(
      dir,
      harOf([
        { url: `${AT}/files`, html: `<form method="post" action="${action}"><input name="to">` },
        {
          method: "POST",
          url: `${AT}${action}`,
          mime: "application/x-www-form-urlencoded",
          body: "to=Quay%20notes.txt",
          html: "<p>Renamed</p>",
        },
      ]),
    );
    assert.match(
      flow,
      /url: \$\{vars\.base_url\}\/files\/\$\{raw:steps\.[a-z_]+\.capture\.linked_path\}\/rename/,
      flow,
    );
    const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: app.origin } });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
