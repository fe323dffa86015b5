/**
 * `convert har` on a request that sent a whole file as its body (not
 * multipart) which the recording does not hold: Radicale's web UI uploads a
 * calendar with `PUT` and the file as the body (tests/real/radicale_har_test.ts),
 * and Playwright and chrome-har both record `Content-Type: text/calendar`,
 * `Content-Length: 230` and no `postData`. The converter wrote a `PUT` with
 * no body, which the server refused (400) on every run, a failure nothing
 * explained. Now such a step sends `body_file:` from a placeholder beside
 * the flow, named for its content type (`uploads/upload.ics`), with the
 * recorded content type, and the summary says the placeholder must be
 * replaced; with the user's file there, the flow passes. Widened to the
 * class: the length in `bodySize` alone, an octet-stream `POST`; a `DELETE`
 * and a `PUT` of length 0 stay without a body.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";

const ICS = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n";

/** A stand-in that wants a calendar on PUT /cal/, any bytes on POST /blobs, nothing on the rest. */
function standIn() {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const body = await req.text();
    const type = req.headers.get("content-type") ?? "";
    seen.push(`${req.method} ${path} ${type} ${body.length}`);
    if (req.method === "PUT" && path === "/cal/") {
      const ok = type === "text/calendar" && body.startsWith("BEGIN:VCALENDAR");
      return new Response(ok ? null : "Bad Request", { status: ok ? 201 : 400 });
    }
    if (req.method === "POST") return new Response(null, { status: body.length > 0 ? 201 : 400 });
    return new Response(null, { status: body === "" ? 200 : 400 });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, seen, close: () => server.shutdown() };
}

function entry(
  method: string,
  path: string,
  status: number,
  headers: [string, string][],
  size = 0,
) {
  return {
    startedDateTime: "2026-11-26T17:00:00.000Z",
    request: {
      method,
      url: `http://127.0.0.1:5232${path}`,
      headers: headers.map(([name, value]) => ({ name, value })),
      bodySize: size,
    },
    response: { status, headers: [], content: { mimeType: "x-unknown", size: 0, text: "" } },
    _resourceType: "xhr",
  };
}

function recording(): string {
  const entries = [
    // chrome-har's form: bodySize 0, the length only in the header.
    entry("PUT", "/cal/", 201, [["Content-Type", "text/calendar"], ["Content-Length", "230"]]),
    // The length only in bodySize, as some exports give it.
    entry("POST", "/blobs", 201, [["Content-Type", "application/octet-stream"]], 4096),
    entry("PUT", "/touch", 200, [["Content-Length", "0"]]),
    entry("DELETE", "/cal/", 200, []),
  ];
  return JSON.stringify({ log: { entries } });
}

Deno.test("convert har: a whole-file body the recording does not hold is sent from a placeholder file beside the flow, noted, and the flow passes once the user's file is there", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-unrecorded-body-" });
  const app = standIn();
  try {
    const { converted, flow } = await convertHar(dir, recording());
    assert.equal(flow.match(/body_file: uploads\/upload\.ics/g)?.length, 1, flow);
    assert.equal(flow.match(/body_file: uploads\/upload\.bin/g)?.length, 1, flow);
    assert.equal(flow.match(/body_file:/g)?.length, 2, flow);
    assert.match(flow, /content-type: text\/calendar/);
    assert.match(converted.stderr, /uploads\/upload\.ics[^\n]*placeholder/);
    const placeholder = await Deno.readTextFile(`${dir}/uploads/upload.ics`);
    assert.match(placeholder, /not recorded/);
    const env = { BASE_URL: app.origin };
    // As converted, the placeholder is no calendar: the server refuses it, and the run says so.
    const before = await runCli(["run", `${dir}/flow.yaml`], { env });
    assert.equal(before.code, 1, before.stdout);
    assert.match(before.stdout, /expected 201, got 400/);
    // The user puts their file where the summary said.
    await Deno.writeTextFile(`${dir}/uploads/upload.ics`, ICS);
    await Deno.writeTextFile(`${dir}/uploads/upload.bin`, "\x00\x01blob");
    app.seen.length = 0;
    const after = await runCli(["run", `${dir}/flow.yaml`], { env });
    assert.equal(after.code, 0, `${after.stdout}\n${flow}`);
    assert.deepEqual(app.seen, [
      `PUT /cal/ text/calendar ${ICS.length}`,
      "POST /blobs application/octet-stream 6",
      "PUT /touch  0",
      "DELETE /cal/  0",
    ]);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har --verify sends the user's file already beside the flow, not the placeholder, so the upload verifies", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-unrecorded-body-" });
  const app = standIn();
  try {
    await Deno.writeTextFile(`${dir}/r.har`, recording());
    await Deno.mkdir(`${dir}/uploads`);
    await Deno.writeTextFile(`${dir}/uploads/upload.ics`, ICS);
    await Deno.writeTextFile(`${dir}/uploads/upload.bin`, "\x00\x01blob");
    const verified = await runCli([
      "convert",
      "har",
      `${dir}/r.har`,
      "--verify",
      app.origin,
      "-o",
      `${dir}/flow.yaml`,
    ]);
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stderr, /Verified 4 steps against \S+: all pass\./);
    assert.match(verified.stderr, /Kept the existing \S+\/uploads\/upload\.ics/);
    assert.equal(await Deno.readTextFile(`${dir}/uploads/upload.ics`), ICS);
    assert.ok(app.seen.includes(`PUT /cal/ text/calendar ${ICS.length}`), app.seen.join("\n"));
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
