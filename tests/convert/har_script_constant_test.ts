/**
 * A word the app's own script writes under a field (`{content: c, encoding:
 * "base64"}`) is the client's constant wherever a request sends it, even when
 * an earlier answer's listing held the same word under the same key. (Decap
 * CMS, issue 52: its media listing answered `[{name: ".keep", encoding:
 * "base64", …}]`, and the upload's `encoding: base64` became a capture by a
 * filter on the `.keep` row: on a site whose media folder holds other files,
 * the capture matched nothing and 37 of 40 steps were skipped.)
 *
 * The server here is a media API on another instance than the recorded one:
 * its folder holds `logo.png`, not the recording's `.keep`. It lists files
 * (`POST /api {action: "getMedia"}` and `GET /media?encoding=base64`) and
 * stores an upload only with the encoding it knows. The recording was made
 * where the folder held `.keep`; its script assigns the encoding as a
 * literal, and the requests after the listing send it in a JSON body, a
 * query and a form.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { fullExchange } from "../support/har_records.ts";

/** The script the page loaded: it writes the encoding itself. */
const SCRIPT = 'function up(t){return fetch("/api",{method:"POST",body:JSON.stringify(' +
  '{action:"persistMedia",asset:{content:t,encoding:"base64"}})})}' +
  'var q={encoding:"base64",depth:1};';

function startMedia() {
  const files = new Map([["logo.png", "iVBORw0KGgo="]]);
  const refused: string[] = [];
  const row = (name: string) => ({ name, encoding: "base64", size: files.get(name)!.length });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/app.js") {
      return new Response(SCRIPT, { headers: { "content-type": "text/javascript" } });
    }
    if (req.method === "GET" && url.pathname === "/media") {
      if (url.searchParams.get("encoding") !== "base64") {
        refused.push(`GET /media?encoding=${url.searchParams.get("encoding")}`);
        return Response.json({ error: "unknown encoding" }, { status: 422 });
      }
      return Response.json([...files.keys()].map(row));
    }
    if (url.pathname === "/thumb") {
      const form = new URLSearchParams(await req.text());
      if (form.get("encoding") === "base64") return Response.json({ ok: true });
      refused.push(`POST /thumb encoding=${form.get("encoding")}`);
      return Response.json({ error: "unknown encoding" }, { status: 422 });
    }
    const body = await req.json();
    if (body.action === "getMedia") return Response.json([...files.keys()].map(row));
    const { path, content, encoding } = body.asset ?? {};
    if (encoding !== "base64") {
      refused.push(`persistMedia ${path}: encoding ${encoding}`);
      return Response.json({ error: `unknown encoding ${encoding}` }, { status: 422 });
    }
    files.set(String(path), String(content));
    return Response.json(row(String(path)));
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    refused,
    close: () => server.shutdown(),
  };
}

/** One recorded exchange on the recorded instance: a string body is a form's, else JSON. */
function entry(method: string, path: string, answer: string, mimeType: string, body?: unknown) {
  const type = typeof body === "string" ? "application/x-www-form-urlencoded" : "application/json";
  const text = body === undefined || typeof body === "string" ? body : JSON.stringify(body);
  return {
    ...fullExchange(method, `http://127.0.0.1:18431${path}`, text, answer, type, mimeType),
    _resourceType: mimeType === "text/javascript" ? "script" : "fetch",
  };
}

/** The journey where the folder held `.keep`: load the script, list the media, upload, list again. */
function recording(): string {
  const keep = JSON.stringify([{ name: ".keep", encoding: "base64", size: 0 }]);
  const both = JSON.stringify([
    { name: ".keep", encoding: "base64", size: 0 },
    { name: "harbour.png", encoding: "base64", size: 12 },
  ]);
  const entries = [
    entry("GET", "/app.js", SCRIPT, "text/javascript"),
    entry("POST", "/api", keep, "application/json", { action: "getMedia", mediaFolder: "img" }),
    entry("POST", "/api", JSON.stringify(JSON.parse(both)[1]), "application/json", {
      action: "persistMedia",
      asset: { path: "harbour.png", content: "iVBORw0KGgoA", encoding: "base64" },
    }),
    entry("GET", "/media?encoding=base64", both, "application/json"),
    entry("POST", "/thumb", '{"ok":true}', "application/json", "name=harbour.png&encoding=base64"),
  ];
  return JSON.stringify({ log: { version: "1.2", creator: { name: "test" }, entries } });
}

Deno.test("a word the app's script writes under a field is sent as written, not captured from a listing's row", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-script-constant-" });
  const media = startMedia();
  try {
    await Deno.writeTextFile(`${dir}/s.har`, recording());
    const converted = await runCli(["convert", "har", `${dir}/s.har`, "-o", `${dir}/flow.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.doesNotMatch(flow, /\.keep/, flow);
    // Run as the summary says, on an instance whose folder holds other files, twice.
    for (const n of [1, 2]) {
      const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: media.origin } });
      assert.equal(run.code, 0, `run ${n}: ${run.stdout}${run.stderr}\n${flow}`);
    }
    assert.deepEqual(media.refused, []);
  } finally {
    await media.close();
    await Deno.remove(dir, { recursive: true });
  }
});
