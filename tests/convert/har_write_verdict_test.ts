/**
 * `convert har` on a write the server refuses with a 200: Raneto 0.16 (docs/real-servers-har.md)
 * answers a second `POST /rn-add-category` of the same name `200 {"status":1,"message":…}`, and
 * many server-rendered apps answer a refused form with the same page as an accepted one, the flash
 * message saying which. A flow that checks only the status passed run 2 over the refusal.
 *
 * What the converter does (write_verdict.ts): a write answered 2xx pins what the recorded answer
 * shows marking success: a JSON verdict member's recorded number (`status: 0`, `code: 0`), and in
 * an HTML page the text of its flash message (`role="alert"`, `class="flash notice"`, …) when that
 * text holds no digit and none of what the request sent. So run 2 fails at that step, named.
 */
import assert from "node:assert/strict";
import { convertHarFile, runCli } from "../support/cli.ts";
import { type EntrySpec, harOf } from "../support/har_records.ts";

const CREATED_HTML = (flash: string) =>
  `<html><body><nav>Notes</nav><div class="flash ${flash}" role="alert">${
    flash === "notice" ? "Category saved." : "A category of that name already exists."
  }</div><ul><li>Harbour Notes</li></ul></body></html>`;

/** A server that keeps its categories, answering a second create of a name 200 with a refusal. */
function notesServer() {
  const names = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "GET") return new Response("<html><body>Notes</body></html>");
    const json = path.startsWith("/api/");
    const name = json
      ? String((await req.json()).name)
      : String((await req.formData()).get("name"));
    const fresh = !names.has(`${path} ${name}`);
    names.add(`${path} ${name}`);
    if (path === "/api/categories") {
      return Response.json(
        fresh ? { status: 0, message: "Category saved" } : {
          status: 1,
          message: { code: "EEXIST" },
        },
      );
    }
    if (path === "/api/pages") {
      return Response.json(
        fresh
          ? { code: 0, msg: "Page saved", data: {} }
          : { code: 409, msg: "Page exists", data: {} },
      );
    }
    const html = CREATED_HTML(fresh ? "notice" : "alert");
    return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}

function recording(origin: string, write: EntrySpec): string {
  return harOf([
    { url: `${origin}/`, html: "<html><body>Notes</body></html>" },
    write,
  ]);
}

const WRITES: [string, (origin: string) => EntrySpec, RegExp][] = [
  ["a JSON answer's status member", (o) => ({
    method: "POST",
    url: `${o}/api/categories`,
    body: JSON.stringify({ name: "Harbour Notes" }),
    json: { status: 0, message: "Category saved" },
  }), /path: \$\.json\.status, equals: 0/],
  ["a JSON answer's code member", (o) => ({
    method: "POST",
    url: `${o}/api/pages`,
    body: JSON.stringify({ name: "Dock schedule" }),
    json: { code: 0, msg: "Page saved", data: {} },
  }), /path: \$\.json\.code, equals: 0/],
  ["an HTML page's flash message", (o) => ({
    method: "POST",
    url: `${o}/categories`,
    body: "name=Harbour+Notes",
    mime: "application/x-www-form-urlencoded",
    html: CREATED_HTML("notice"),
  }), /path: \$\.body, contains: Category saved\. \}/],
];

for (const [what, write, check] of WRITES) {
  Deno.test(`convert har: a write refused with a 200 fails run 2 on one server: ${what}`, async () => {
    const app = notesServer();
    const dir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(`${dir}/app.har`, recording(app.origin, write(app.origin)));
      const flow = await convertHarFile(`${dir}/app.har`, `${dir}/app.yaml`);
      assert.match(flow, check, flow);
      const env = { env: { BASE_URL: app.origin } };
      const first = await runCli(["run", `${dir}/app.yaml`], env);
      assert.equal(first.code, 0, `run 1: ${first.stdout}${first.stderr}\n${flow}`);
      const second = await runCli(["run", `${dir}/app.yaml`], env);
      assert.equal(second.code, 1, `run 2: ${second.stdout}${second.stderr}\n${flow}`);
      assert.match(second.stdout, /✘ create_(category|page)\b/, second.stdout);
    } finally {
      await app.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("convert har: a flash message holding what the request sent, or a number, is not pinned", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const page = (text: string) => `<html><body><p class="alert">${text}</p></body></html>`;
    const write = (url: string, html: string) => ({
      method: "POST",
      url,
      body: "title=Dock+schedule",
      mime: "application/x-www-form-urlencoded",
      html,
    });
    await Deno.writeTextFile(
      `${dir}/app.har`,
      harOf([
        { url: "http://a.test/", html: "<html><body>Notes</body></html>" },
        write("http://a.test/pages", page("Page Dock schedule saved")),
        write("http://a.test/notes", page("Saved 3 notes at 12:40")),
      ]),
    );
    const flow = await convertHarFile(`${dir}/app.har`, `${dir}/app.yaml`);
    assert.doesNotMatch(flow, /contains:/, flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
