/**
 * `convert har` on an id the browser made (a UUID v4 no response produced
 * before it was first sent) that a request carries outside a path, a query
 * or a JSON body. Seen on Actual Budget's sync server
 * (docs/real-servers-har.md): the client names a new budget by a UUID it
 * made and sends it only in `X-Actual-File-Id` and inside protobuf bodies.
 * It was kept as recorded there, so a second run on the same instance named
 * the first run's file and was refused (400). Such an id is the run's own
 * wherever it is sent (any header, a form field, a text body, a framed
 * body): one value per run, when the recording sends it again or a later
 * answer echoes it. A UUID sent once and never echoed, one that an earlier
 * answer gave, and one not shaped as random (v1) stay as they were.
 *
 * The stand-in runs on 127.0.0.1 and refuses a second create of an id it has.
 */
import assert from "node:assert/strict";
import { convertHarText, convertHarThenRun } from "../support/cli.ts";
import { type EntrySpec, harOf } from "../support/har_records.ts";

const RECORDED = "http://127.0.0.1:5006";
const FILE = "5c36d76a-9531-4083-b683-74b08240048d";
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** A protobuf-like frame around `id`: tag, length `$` (36), the id, then another field. */
function framed(id: string): string {
  return `\u0012$${id}\u001a\u0002ok`;
}

/** The stand-in: `/create` takes the id from `X-File-Id` or the body; `/use` needs a created one. */
function standIn() {
  const files = new Set<string>();
  const refused: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { pathname } = new URL(req.url);
    const body = await req.text();
    const id = req.headers.get("x-file-id") ?? body.match(UUID)?.[0] ?? "";
    if (pathname === "/create") {
      if (files.has(id)) {
        refused.push(`create ${id}`);
        return Response.json({ reason: "file-exists" }, { status: 400 });
      }
      files.add(id);
      return Response.json({ status: "ok" });
    }
    if (!files.has(id)) {
      refused.push(`use ${id}`);
      return Response.json({ reason: "file-not-found" }, { status: 400 });
    }
    return Response.json({ status: "ok" });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    refused,
    close: () => server.shutdown(),
  };
}

/** Converts `specs`, then runs the flow twice on one stand-in. */
async function convertAndRunTwice(specs: EntrySpec[]) {
  const { flow, runs: [first, second], server } = await convertHarThenRun(
    standIn,
    harOf(specs),
    {},
    2,
  );
  return { flow, first, second, refused: server.refused };
}

const headerUse: EntrySpec = {
  method: "POST",
  url: `${RECORDED}/use`,
  headers: [["X-File-Id", FILE]],
  body: "{}",
};

const framedUse: EntrySpec = {
  method: "POST",
  url: `${RECORDED}/use`,
  mime: "application/actual-sync",
  body: framed(FILE),
};

/** The ways a create sends the id the browser made. */
const creates: [string, EntrySpec][] = [
  ["a header", {
    method: "POST",
    url: `${RECORDED}/create`,
    headers: [["X-File-Id", FILE]],
    mime: "application/encrypted-file",
    body: "PK",
  }],
  ["a framed body", {
    method: "POST",
    url: `${RECORDED}/create`,
    mime: "application/x-protobuf",
    body: framed(FILE),
  }],
  ["a text body", {
    method: "POST",
    url: `${RECORDED}/create`,
    mime: "text/plain",
    body: `budget ${FILE}\n`,
  }],
  ["a form field", {
    method: "POST",
    url: `${RECORDED}/create`,
    mime: "application/x-www-form-urlencoded",
    body: `name=budget&ref=file%3A${FILE}`,
  }],
];

for (const [how, create] of creates) {
  for (const [usedHow, use] of [["a header", headerUse], ["a framed body", framedUse]] as const) {
    Deno.test(`convert har: an id the browser made, created in ${how} and used in ${usedHow}, is the run's own`, async () => {
      const { flow, first, second, refused } = await convertAndRunTwice([create, use]);
      assert.ok(!flow.includes(FILE), flow);
      assert.match(flow, /\$\{RANDOM\.UUID\}/, flow);
      assert.equal(first.code, 0, first.stdout + flow);
      assert.equal(second.code, 0, second.stdout + flow);
      assert.deepEqual(refused, []);
    });
  }
}

/** The flow `convert har` writes for `specs`. */
async function converted(specs: EntrySpec[]): Promise<string> {
  return (await convertHarText(harOf(specs))).flow;
}

Deno.test("convert har: a header UUID sent once and never echoed stays as recorded", async () => {
  const flow = await converted([
    { method: "GET", url: `${RECORDED}/a`, headers: [["X-Tenant", FILE]] },
    { method: "GET", url: `${RECORDED}/b` },
  ]);
  assert.match(flow, new RegExp(`x-tenant: "?${FILE}`), flow);
});

Deno.test("convert har: a header UUID sent once that a later answer echoes is the run's own", async () => {
  const flow = await converted([
    { method: "POST", url: `${RECORDED}/create`, headers: [["X-File-Id", FILE]], body: "{}" },
    { method: "GET", url: `${RECORDED}/list`, json: [{ fileId: FILE, name: "budget" }] },
  ]);
  assert.ok(!flow.includes(FILE), flow);
  assert.match(flow, /x-file-id: "?\$\{RANDOM\.UUID\}/, flow);
});

Deno.test("convert har: a header UUID an earlier answer gave is captured, not made fresh", async () => {
  const flow = await converted([
    { method: "POST", url: `${RECORDED}/open`, body: "{}", json: { fileId: FILE } },
    { method: "POST", url: `${RECORDED}/use`, headers: [["X-File-Id", FILE]], body: "{}" },
    { method: "POST", url: `${RECORDED}/use`, headers: [["X-File-Id", FILE]], body: "{}" },
  ]);
  assert.match(flow, /x-file-id: \$\{steps\.open\.capture\.file_id\}/, flow);
  assert.doesNotMatch(flow, /RANDOM\.UUID/, flow);
});

Deno.test("convert har: a UUID not shaped as random (v1) sent twice in headers stays as recorded", async () => {
  const v1 = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";
  const flow = await converted([
    { method: "GET", url: `${RECORDED}/a`, headers: [["X-Install", v1]] },
    { method: "GET", url: `${RECORDED}/b`, headers: [["X-Install", v1]] },
  ]);
  assert.equal(flow.split(new RegExp(`x-install: "?${v1}`)).length, 3, flow);
});

Deno.test("convert har: an id the browser made that a listing echoes is still the run's own after it", async () => {
  const flow = await converted([
    { method: "POST", url: `${RECORDED}/create`, headers: [["X-File-Id", FILE]], body: "{}" },
    { method: "GET", url: `${RECORDED}/list`, json: [{ fileId: FILE, name: "budget" }] },
    { method: "POST", url: `${RECORDED}/use`, headers: [["X-File-Id", FILE]], body: "{}" },
  ]);
  assert.ok(!flow.includes(FILE), flow);
  assert.match(flow, /^ {2}file_id: \$\{RANDOM\.UUID\}$/m, flow);
  assert.equal(flow.split("x-file-id: ${vars.file_id}").length, 3, flow);
  assert.doesNotMatch(flow, /capture/, flow);
});

Deno.test("convert har: a UUID v4 the user gave as a key stays a variable to set", async () => {
  const flow = await converted([
    { method: "GET", url: `${RECORDED}/a`, headers: [["X-Api-Key", FILE]] },
    { method: "GET", url: `${RECORDED}/b`, headers: [["X-Api-Key", FILE]] },
  ]);
  assert.equal(flow.split("x-api-key: ${ENV.API_KEY}").length, 3, flow);
  assert.doesNotMatch(flow, /RANDOM/, flow);
});
