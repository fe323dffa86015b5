/**
 * `convert har` on a value a response produced, sent again inside a binary
 * framing (protobuf). Seen on Actual Budget's sync server
 * (docs/real-servers-har.md): the upload answers `{"groupId": "<uuid>"}`
 * and every `POST /sync/sync` sends it as protobuf field 3, prefixed by its
 * length (`$`, 36) and followed by the next field's tag (`2`). Two classes
 * met there:
 *
 * - a produced value was replaced only between characters that are no
 *   letters or digits, and a tag or length byte may read as one, so the
 *   recorded group id was sent and the fresh server answered 400
 *   `file-has-reset`: in a body holding control characters a long value
 *   (16 characters or more) is now found wherever it stands;
 * - a literal `$` right before a capture was written `$${…}`, flowrun's
 *   escape for the text `${…}`: the expression itself was sent (500, the
 *   framing broken). That `$` now comes from the `dollar` var, as in the
 *   curl and Postman converters.
 *
 * The stand-in runs on 127.0.0.1 and hands out a fresh group id per upload.
 */
import assert from "node:assert/strict";
import { convertHarThenRun, runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";
import { convertHars } from "./har_convert.ts";

const RECORDED = "http://127.0.0.1:5006";
const FILE = "5c36d76a-9531-4083-b683-74b08240048d";
const GROUP = "e9946ca8-6c47-4be8-b17d-a27f9314b8fb";

/** A sync request as the client frames it: file id, group id, then `since`. */
function framed(group: string): string {
  return `\u0012$${FILE}\u001a$${group}2.2026-11-28T03:24:01.293Z-0000-0000000000000000`;
}

function standIn() {
  let group = "";
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { pathname } = new URL(req.url);
    const body = await req.text();
    if (pathname === "/sync/upload-user-file") {
      group = crypto.randomUUID();
      return Response.json({ status: "ok", groupId: group });
    }
    seen.push(body);
    const sent = pathname === "/sync/sync" ? body.slice(40, 76) : body.slice(body.indexOf("$") + 1);
    if (sent !== group) return Response.json({ reason: "file-has-reset" }, { status: 400 });
    return new Response(new Uint8Array([0x0a, 0x00]), {
      headers: { "content-type": "application/actual-sync" },
    });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

function recording(mime: string, body: string, path = "/sync/sync"): string {
  return harOf([
    {
      method: "POST",
      url: `${RECORDED}/sync/upload-user-file`,
      headers: [["X-Actual-File-Id", FILE]],
      mime: "application/encrypted-file",
      body: "PK",
      json: { status: "ok", groupId: GROUP },
    },
    { method: "POST", url: `${RECORDED}${path}`, mime, body },
  ]);
}

async function convertAndRun(har: string) {
  const { flow, run, server } = await convertHarThenRun(standIn, har);
  return { flow, run, seen: server.seen };
}

Deno.test("convert har: a produced id inside a protobuf body is captured, and the sync passes on a fresh instance", async () => {
  const { flow, run, seen } = await convertAndRun(
    recording("application/actual-sync", framed(GROUP)),
  );
  assert.ok(!flow.includes(GROUP), flow);
  assert.match(flow, /\$\{vars\.dollar\}\$\{steps\.upload_user_file\.capture\.group_id\}2\./, flow);
  assert.match(flow, /^ {2}dollar: \$$/m, flow);
  assert.equal(run.code, 0, run.stdout + flow);
  assert.equal(seen.length, 1);
  assert.equal(seen[0].length, framed(GROUP).length, "the framing kept its lengths");
});

Deno.test("convert har: a literal `$` before a capture in a text body is sent as `$`", async () => {
  const { flow, run, seen } = await convertAndRun(
    recording("text/plain", `group $${GROUP}`, "/notes"),
  );
  assert.match(
    flow,
    /body: "?group \$\{vars\.dollar\}\$\{steps\.upload_user_file\.capture\.group_id\}/,
    flow,
  );
  assert.equal(run.code, 0, run.stdout + flow);
  assert.match(seen[0], /^group \$[0-9a-f-]{36}$/);
});

Deno.test("convert har: a short value is not searched inside a framed body", async () => {
  // `ab12` was answered, and the framed body holds it inside a longer run: it stays literal.
  const har = harOf([
    { method: "POST", url: `${RECORDED}/a`, body: "{}", json: { code: "ab12" } },
    {
      method: "POST",
      url: `${RECORDED}/b`,
      mime: "application/x-protobuf",
      body: "\u0012\u0006xab12y",
    },
  ]);
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/in.har`, har);
    const converted = await runCli(["convert", "har", `${dir}/in.har`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stdout, /body: "\\u0012\\u0006xab12y"/, converted.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: with two recordings, an id the client made is one value in the header and inside the protobuf body", async () => {
  const OTHER_FILE = "0f2b8c4e-1d3a-4e5f-9a6b-7c8d9e0f1a2b";
  const second = recording("application/actual-sync", framed(GROUP).replace(FILE, OTHER_FILE))
    .replaceAll(FILE, OTHER_FILE);
  const dir = await Deno.makeTempDir();
  const files: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.text();
    const file = req.headers.get("x-actual-file-id");
    if (file) {
      files.push(file);
      return Response.json({ status: "ok", groupId: crypto.randomUUID() });
    }
    return body.slice(2, 38) === files.at(-1)
      ? new Response(new Uint8Array([0x0a, 0x00]))
      : Response.json({ reason: "file-not-found" }, { status: 400 });
  });
  try {
    const first = recording("application/actual-sync", framed(GROUP));
    const { flow } = await convertHars(dir, [first, second]);
    assert.ok(!flow.includes(FILE), flow);
    const origin = `http://127.0.0.1:${server.addr.port}`;
    const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: origin } });
    assert.equal(run.code, 0, run.stdout + flow);
    assert.equal(files.length, 1);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
