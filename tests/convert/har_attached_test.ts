/**
 * `convert har` on a recording Playwright wrote with `recordHar: {content: "attach"}` (also what
 * `mode: "minimal"` is usually paired with): each request and response body is a file beside
 * the HAR, named by its SHA-1, and the entry keeps only `_file` and an empty `text`. Read as the
 * HAR alone (calibre's content server, recorded so), the save `POST /cdb/set-fields/1/lib` was
 * sent with no body (answered 400, "Invalid encoded data") and every chunked JSON answer had no
 * body and no size, so it was dropped as "unanswered (still open when the recording ended)". The
 * bodies are read from beside the recording; a file that is not there is said, by name, and a
 * `_file` that names a path outside the recording's folder is never read.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const SAVE = JSON.stringify({ changes: { title: "The Harbour Ledger" }, loaded_book_ids: ["1"] });

/** A stand-in that refuses a save without its JSON body, as calibre does. */
function standIn() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method === "POST") {
      const body = await req.text();
      try {
        return Response.json({ "1": { title: JSON.parse(body).changes.title } });
      } catch {
        return new Response("Invalid encoded data", { status: 400 });
      }
    }
    return Response.json({ library_map: { lib: "lib" }, default_library_id: "lib" });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** Playwright's entry shape in attach mode: no sizes, no times, the body in `_file`. */
function entry(method: string, url: string, response: string, request?: string) {
  const chunked = [
    { name: "Content-Type", value: "application/json; charset=UTF-8" },
    { name: "Transfer-Encoding", value: "chunked" },
  ];
  return {
    startedDateTime: new Date(Date.UTC(2026, 0, 1)).toISOString(),
    time: 12.6,
    request: {
      method,
      url,
      headers: [{ name: "Accept", value: "*/*" }],
      headersSize: -1,
      bodySize: -1,
      ...(request
        ? { postData: { mimeType: "application/json;charset=UTF-8", text: "", _file: request } }
        : {}),
    },
    response: {
      status: 200,
      headers: chunked,
      content: { size: -1, mimeType: "application/json; charset=UTF-8", _file: response },
      headersSize: -1,
      bodySize: -1,
    },
    timings: { send: -1, wait: -1, receive: 12.6 },
    _resourceType: "xhr",
  };
}

async function recordIn(dir: string, files: Record<string, string>, bodies: string[]) {
  const at = "http://127.0.0.1:8080";
  const har = {
    log: {
      version: "1.2",
      creator: { name: "Playwright", version: "1.65.1" },
      entries: [
        entry("GET", `${at}/interface-data/init`, bodies[0]),
        entry("POST", `${at}/cdb/set-fields/1/lib`, bodies[2], bodies[1]),
      ],
    },
  };
  await Deno.mkdir(`${dir}/rec`, { recursive: true });
  await Deno.writeTextFile(`${dir}/rec/journey.har`, JSON.stringify(har));
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${dir}/rec/${name}`, text);
  }
}

const NAMES = ["5aff98dd.json", "81e0153d.json", "5a01cf28.json"];
const FILES = {
  [NAMES[0]]: JSON.stringify({ library_map: { lib: "lib" }, default_library_id: "lib" }),
  [NAMES[1]]: SAVE,
  [NAMES[2]]: JSON.stringify({ "1": { title: "The Harbour Ledger" } }),
};

Deno.test("convert har: bodies Playwright attached beside the recording are read, so the save sends its body, the chunked answer is kept and checked, and the flow passes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-attached-" });
  const app = standIn();
  try {
    await recordIn(dir, FILES, NAMES);
    const converted = await runCli([
      "convert",
      "har",
      `${dir}/rec/journey.har`,
      "-o",
      `${dir}/flow.yaml`,
    ]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stderr, /Converted 2 of 2 HAR entries into 2 steps\./);
    assert.ok(!/unanswered|not beside/.test(converted.stderr), converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.match(flow, /title: The Harbour Ledger/, flow);
    assert.match(flow, /\$\.json\.default_library_id, type: string/, flow);
    const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: app.origin } });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: an attached body that is not beside the recording is named once, and a _file naming a path outside its folder is never read", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-attached-" });
  try {
    await Deno.writeTextFile(`${dir}/outside.json`, SAVE);
    const files = { [NAMES[0]]: FILES[NAMES[0]] };
    await recordIn(dir, files, [NAMES[0], "../outside.json", NAMES[2]]);
    const converted = await runCli([
      "convert",
      "har",
      `${dir}/rec/journey.har`,
      "-o",
      `${dir}/flow.yaml`,
    ]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(
      converted.stderr,
      /keeps 2 of its bodies in files that are not beside it \("\.\.\/outside\.json", "5a01cf28\.json"\)/,
    );
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.ok(!flow.includes("Harbour"), flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
