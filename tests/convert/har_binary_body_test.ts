/**
 * `convert har` on a request body that is not UTF-8 text (a protobuf sync
 * message, an octet-stream blob, a gzip'd upload, an image). Seen on Actual
 * Budget's sync server (docs/real-servers-har.md), which refuses a message
 * whose bytes changed. Each producer records such a body its own way, as
 * headless Chromium with playwright-core 1.65 and chrome-har 1.3 did here:
 *
 * - chrome-har (DevTools' `postData`): one character per byte (ISO-8859-1)
 *   when the bytes are not UTF-8, its `bodySize` the character count and
 *   `Content-Length` sometimes missing: the bytes are all there;
 * - Playwright's `content: "attach"`: the bytes in a file beside the HAR;
 * - a producer that writes `postData.encoding: "base64"`, as HAR writes a
 *   binary response: the bytes are all there;
 * - Playwright's `content: "embed"`: the bytes decoded as UTF-8, each bad
 *   one replaced by U+FFFD, or, under `application/octet-stream`, an empty
 *   text beside a `bodySize` of the bytes sent: the bytes are lost.
 *
 * A body whose bytes the recording holds is sent byte for byte from a file
 * beside the flow (`body_file`); one whose bytes are lost is a placeholder
 * file the summary says to replace, never the mangled text. A UTF-8 text
 * body (accented letters, control characters of a framing) stays text.
 *
 * The stand-in runs on 127.0.0.1 and answers 200 only to the exact bytes.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const RECORDED = "http://127.0.0.1:5006";

/** Bytes that are no UTF-8, with a NUL, a lone continuation byte and a valid `é` among them. */
const PROTOBUF = new Uint8Array([0x08, 0x96, 0x01, 0xc3, 0xa9, 0xff, 0x00, 0x80, 0x41]);
/** A gzip stream's head: magic, deflate, flags, time. */
const GZIP = new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xcb]);
/** A PNG's signature and the start of its header chunk. */
const PNG = new Uint8Array([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  0x00,
  0x00,
  0x00,
  0x0d,
]);
const OCTETS = new Uint8Array([0xde, 0xad, 0xbe, 0xef, 0x00, 0x01, 0xfe]);

/** What each path must receive, byte for byte. */
const EXPECTED: Record<string, Uint8Array> = {
  "/sync": PROTOBUF,
  "/blob": OCTETS,
  "/archive": GZIP,
  "/avatar": PNG,
};

const latin1 = (bytes: Uint8Array) => String.fromCharCode(...bytes);
const base64 = (bytes: Uint8Array) => btoa(latin1(bytes));

function standIn() {
  const received: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { pathname } = new URL(req.url);
    const body = new Uint8Array(await req.arrayBuffer());
    const want = EXPECTED[pathname];
    const same = want !== undefined && want.length === body.length &&
      want.every((b, i) => b === body[i]);
    received.push(`${pathname} ${same ? "exact" : `${body.length} other bytes`}`);
    return same ? Response.json({ ok: true }) : Response.json({ ok: false }, { status: 400 });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    received,
    close: () => server.shutdown(),
  };
}

/** One POST entry with `postData` and headers as a producer wrote them. */
function entry(
  path: string,
  mime: string,
  postData: Record<string, unknown>,
  headers: [string, string][],
  bodySize: number,
) {
  return {
    startedDateTime: new Date(Date.UTC(2026, 0, 1)).toISOString(),
    request: {
      method: "POST",
      url: `${RECORDED}${path}`,
      headers: [["Content-Type", mime], ...headers].map(([name, value]) => ({ name, value })),
      postData: { mimeType: mime, ...postData },
      bodySize,
    },
    response: {
      status: 200,
      content: { mimeType: "application/json", text: '{"ok":true}' },
    },
  };
}

/** Converts the entries (with `files` beside the HAR) and runs the flow once on a stand-in. */
async function convertAndRun(entries: unknown[], files: Record<string, Uint8Array> = {}) {
  const dir = await Deno.makeTempDir();
  const server = standIn();
  try {
    await Deno.writeTextFile(`${dir}/in.har`, JSON.stringify({ log: { entries } }));
    for (const [name, bytes] of Object.entries(files)) {
      await Deno.writeFile(`${dir}/${name}`, bytes);
    }
    const out = await Deno.makeTempDir();
    const converted = await runCli(["convert", "har", `${dir}/in.har`, "-o", `${out}/f.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${out}/f.yaml`);
    const run = await runCli(["run", `${out}/f.yaml`], { env: { BASE_URL: server.origin } });
    await Deno.remove(out, { recursive: true });
    return { flow, summary: converted.stderr, run, received: server.received };
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("convert har: chrome-har's one-character-per-byte bodies are sent byte for byte", async () => {
  const length = (b: Uint8Array): [string, string][] => [["Content-Length", String(b.length)]];
  const { flow, run, received } = await convertAndRun([
    entry("/sync", "application/actual-sync", { text: latin1(PROTOBUF) }, length(PROTOBUF), 9),
    // No Content-Length (DevTools' extra info came late): the NUL and C1 bytes tell.
    entry("/blob", "application/octet-stream", { text: latin1(OCTETS) }, [], 7),
    entry("/archive", "application/gzip", { text: latin1(GZIP) }, length(GZIP), 11),
    entry("/avatar", "image/png", { text: latin1(PNG) }, length(PNG), 12),
  ]);
  assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}\n${flow}`);
  assert.deepEqual(received, ["/sync exact", "/blob exact", "/archive exact", "/avatar exact"]);
  assert.match(flow, /body_file: /);
});

Deno.test("convert har: base64 request bodies and Playwright's attached ones are sent byte for byte", async () => {
  const { flow, run, received } = await convertAndRun([
    entry("/sync", "application/x-protobuf", { text: base64(PROTOBUF), encoding: "base64" }, [], 9),
    entry("/avatar", "image/png", { text: "", _file: "a1.png" }, [], 12),
    entry("/blob", "application/octet-stream", { text: "", _file: "b2.dat" }, [], 7),
  ], { "a1.png": PNG, "b2.dat": OCTETS });
  assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}\n${flow}`);
  assert.deepEqual(received, ["/sync exact", "/avatar exact", "/blob exact"]);
});

Deno.test("convert har: a body whose bytes the recording lost is a placeholder the summary names, never mangled text", async () => {
  const replaced = new TextDecoder().decode(PROTOBUF);
  assert.ok(replaced.includes("\ufffd"));
  const { flow, summary } = await convertAndRun([
    // Playwright's embed: UTF-8 decoding replaced the bad bytes; Content-Length says 9 were sent.
    entry("/sync", "application/x-protobuf", { text: replaced, params: [] }, [[
      "Content-Length",
      "9",
    ]], 9),
    // Playwright's embed under octet-stream: an empty text, 7 bytes sent.
    entry("/blob", "application/octet-stream", { text: "", params: [] }, [[
      "Content-Length",
      "7",
    ]], 7),
  ]);
  assert.ok(!flow.includes("\ufffd") && !flow.includes("\\uFFFD"), flow);
  assert.equal(flow.match(/body_file: uploads\//g)?.length, 2, flow);
  assert.match(summary, /POST \S*\/sync[^\n]*not UTF-8[^\n]*lost/i);
  assert.match(summary, /POST \S*\/blob[^\n]*lost/i);
  assert.match(summary, /placeholder/);
});

Deno.test("convert har: UTF-8 text bodies stay text, accents and framing bytes too", async () => {
  const text = "café \u0012\u0002ok";
  const bytes = new TextEncoder().encode(text);
  const { flow } = await convertAndRun([
    entry("/note", "text/plain", { text }, [["Content-Length", String(bytes.length)]], 12),
    // chrome-har counts characters; the text decoded as UTF-8 is what was sent.
    entry("/note2", "text/plain", { text: "naïve" }, [], 5),
  ]);
  assert.doesNotMatch(flow, /body_file/);
  assert.match(flow, /café/);
  assert.match(flow, /naïve/);
});

Deno.test("convert har: a body of bytes holding a value an answer produced says it is sent as recorded", async () => {
  const group = "grp-7f3a9c2e51d04b88";
  const framed = new Uint8Array([
    0x0a,
    0xff,
    0x1a,
    group.length,
    ...new TextEncoder().encode(group),
  ]);
  const created = {
    startedDateTime: new Date(Date.UTC(2026, 0, 1)).toISOString(),
    request: { method: "POST", url: `${RECORDED}/create`, headers: [] },
    response: {
      status: 200,
      content: { mimeType: "application/json", text: JSON.stringify({ groupId: group }) },
    },
  };
  const { flow, summary } = await convertAndRun([
    created,
    entry("/sync", "application/actual-sync", { text: latin1(framed) }, [[
      "Content-Length",
      String(framed.length),
    ]], framed.length),
  ]);
  assert.match(flow, /body_file: uploads\/sync\.bin/);
  assert.match(summary, /step "sync" is bytes that hold 1 value an earlier answer produced/);
  // The value itself is never quoted: an answer's token may be a secret.
  assert.ok(!summary.includes(group), summary);
});
