/**
 * `convert har` with two recordings of a journey that uploads a file, as Tomcat's Manager deploys
 * a WAR (docs/real-servers-har.md). Each browser drew its own multipart boundary, so the two
 * recordings' `Content-Type` differed, and the header was judged as any differing value: made
 * fresh, a var `content_type: multipart/form-data; boundary=----${RUN_ID}` the summary counted
 * as "1 made fresh". The boundary is what delimits that request's own body, never a value of the
 * session: the flow writes the parts and the runner draws the boundary, and a body sent as
 * recorded needs the recorded one. So the header is sent as the single recording writes it, and
 * nothing is made fresh. Widened: a boundary of Chromium's, of Firefox's and of curl's spelling,
 * each run twice on a stand-in that reads the parts.
 */
import assert from "node:assert/strict";
import { runCliTwice } from "../support/cli.ts";
import { convertHar, convertHars } from "./har_convert.ts";

const AT = "http://127.0.0.1:8080";

/** A stand-in that reads the upload's parts and answers 200 only when the file and title came. */
function standIn() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method === "GET") return Response.json([{ path: "/tides" }]);
    const form = await req.formData().catch(() => undefined);
    const file = form?.get("deployWar");
    const ok = form?.get("title") === "tides" && file instanceof File && file.name === "tides.txt";
    return Response.json({ said: ok ? "OK - Deployed" : "FAIL" }, { status: ok ? 200 : 400 });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** One recording of the upload, its body delimited by `boundary`. */
function recording(boundary: string): string {
  const text = [
    `--${boundary}`,
    'Content-Disposition: form-data; name="title"',
    "",
    "tides",
    `--${boundary}`,
    'Content-Disposition: form-data; name="deployWar"; filename="tides.txt"',
    "Content-Type: text/plain",
    "",
    "high water at noon",
    `--${boundary}--`,
    "",
  ].join("\r\n");
  const type = `multipart/form-data; boundary=${boundary}`;
  return JSON.stringify({
    log: {
      entries: [{
        startedDateTime: "2026-01-01T00:00:00.000Z",
        request: {
          method: "POST",
          url: `${AT}/manager/upload`,
          headers: [{ name: "Content-Type", value: type }],
          postData: { mimeType: type, text },
        },
        response: {
          status: 200,
          content: { mimeType: "application/json", text: '{"said":"OK - Deployed"}' },
        },
      }, {
        startedDateTime: "2026-01-01T00:00:01.000Z",
        request: { method: "GET", url: `${AT}/manager/list`, headers: [] },
        response: {
          status: 200,
          content: { mimeType: "application/json", text: '[{"path":"/tides"}]' },
        },
      }],
    },
  });
}

const SPELLINGS: [string, string, string][] = [
  ["Chromium", "----WebKitFormBoundarytSlbl2B9yDBHIQBE", "----WebKitFormBoundaryq8Zr2mXw0LkP4dTa"],
  [
    "Firefox",
    "---------------------------31845204213478",
    "---------------------------99021377461520",
  ],
  ["curl", "------------------------a1b2c3d4e5f60718", "------------------------0f9e8d7c6b5a4321"],
];

for (const [browser, a, b] of SPELLINGS) {
  Deno.test(`convert har with two recordings: ${browser}'s multipart boundaries, drawn anew each time, make nothing fresh, and the upload passes twice`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-two-boundary-" });
    const app = standIn();
    try {
      const single = await convertHar(dir, recording(a));
      const { converted, flow } = await convertHars(dir, [recording(a), recording(b)]);
      assert.doesNotMatch(flow, /boundary=/, flow);
      assert.match(converted.stderr, /0 generated values/, converted.stderr);
      // The one recording's flow and the two recordings' differ in nothing the run sends.
      const body = (f: string) => f.split("\n").filter((l) => !l.startsWith("#")).join("\n");
      assert.equal(body(flow), body(single.flow));
      await Deno.writeTextFile(`${dir}/uploads/tides.txt`, "high water at noon\n");
      await runCliTwice(`${dir}/flow.yaml`, app.origin, flow);
    } finally {
      await app.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
