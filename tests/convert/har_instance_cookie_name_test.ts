/**
 * `convert har` on a CSRF pair whose NAME is the instance's own, as
 * Syncthing's web GUI has it (tests/real/syncthing_har_test.ts): the page
 * sets the cookie `CSRF-Token-<first 5 characters of the device id>` (the
 * id the same answer names in `X-Syncthing-Id`), and the app sends its value
 * in the header `X-CSRF-Token-<the same 5>`. A fresh instance has another
 * id, so another cookie name: the capture `{cookie: CSRF-Token-2EWQW}`
 * failed the first step there ("the response sets no cookie").
 *
 * What the converter does: the cookie's value and the varying piece of its
 * name are captured from `Set-Cookie` by a pattern (the piece is the
 * instance's by evidence: the same answer hands it out inside an opaque
 * value), and the `Cookie` header names the cookie by that capture, as the
 * header named for the piece names it (a header's name may hold an
 * expression, docs/expressions.md). An answer keyed by the instance's id
 * (Syncthing's stats by device) is checked for its type, not for the
 * recorded id's key, and the piece, an id the instance shows in the clear,
 * is no secret: reports show it. Widened: a cookie name of words alone
 * (`csrftoken`) and a piece no other value holds stay as they were.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

/** A stand-in with device id `id`: its cookie and header are named for the id's first 5 characters. */
function standIn(id: string) {
  const short = id.slice(0, 5);
  const token = crypto.randomUUID().replaceAll("-", "");
  const cookies: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/") {
      const headers = new Headers({ "content-type": "text/html", "x-app-id": id });
      headers.append("set-cookie", `CSRF-Token-${short}=${token}`);
      headers.append("set-cookie", "csrftoken=plain-words-cookie");
      return new Response("<html><body>app</body></html>", { headers });
    }
    cookies.push(req.headers.get("cookie") ?? "");
    if (req.headers.get(`x-csrf-token-${short}`) !== token) {
      return Response.json({ error: "CSRF error" }, { status: 403 });
    }
    return Response.json({ [id]: { seen: 1 } });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    cookies,
    token,
    short,
    close: () => server.shutdown(),
  };
}

function recording(): string {
  const id = "2EWQWN5-YMCFNVF-6QKU542-4A64LRF";
  const entry = (path: string, response: Record<string, unknown>, headers: string[][] = []) => ({
    startedDateTime: "2026-01-01T00:00:00.000Z",
    time: 1,
    request: {
      method: "GET",
      url: `http://127.0.0.1:8384${path}`,
      headers: headers.map(([name, value]) => ({ name, value })),
      cookies: [],
    },
    response,
    _resourceType: path === "/" ? "document" : "xhr",
  });
  const page = {
    status: 200,
    headers: [
      { name: "Content-Type", value: "text/html" },
      { name: "X-App-Id", value: id },
      { name: "Set-Cookie", value: "CSRF-Token-2EWQW=f2b8c1d0e9a74b6c8d5e3f1a2b3c4d5e" },
      { name: "Set-Cookie", value: "csrftoken=plain-words-cookie" },
    ],
    cookies: [],
    content: { mimeType: "text/html", text: "<html><body>app</body></html>" },
  };
  const json = {
    status: 200,
    headers: [],
    cookies: [],
    content: { mimeType: "application/json", text: JSON.stringify({ [id]: { seen: 1 } }) },
  };
  return JSON.stringify({
    log: {
      entries: [
        entry("/", page),
        entry("/rest/status", json, [
          [
            "Cookie",
            "CSRF-Token-2EWQW=f2b8c1d0e9a74b6c8d5e3f1a2b3c4d5e; csrftoken=plain-words-cookie",
          ],
          ["X-CSRF-Token-2EWQW", "f2b8c1d0e9a74b6c8d5e3f1a2b3c4d5e"],
        ]),
      ],
    },
  });
}

Deno.test("convert har: a cookie named for the instance is captured with its name, and the header named for it by the same capture", async () => {
  const dir = await Deno.makeTempDir();
  const fresh = standIn("QK7ZMXA-ABCDEFG-HIJKLMN-OPQRSTU");
  try {
    await Deno.writeTextFile(`${dir}/in.har`, recording());
    const converted = await runCli(["convert", "har", `${dir}/in.har`, "-o", `${dir}/flow.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.match(flow, /\{ header: set-cookie, regex: /, flow);
    assert.match(
      flow,
      /cookie: CSRF-Token-\$\{steps\.open_home\.capture\.instance\}=\$\{steps\.open_home\.capture\.[a-z_]+\}; csrftoken=/,
      flow,
    );
    assert.match(flow, /"x-csrf-token-\$\{steps\.open_home\.capture\.instance\}": \$\{/, flow);
    // The answer keyed by the recorded device's id is not checked for that key.
    assert.ok(!flow.includes("$.json['2EWQWN5"), flow);
    const run = await runCli(
      [
        "run",
        `${dir}/flow.yaml`,
        "--report-har",
        `${dir}/run.har`,
        "--report-json",
        `${dir}/r.json`,
      ],
      { env: { BASE_URL: fresh.origin } },
    );
    // Every step passes on the fresh instance, with the fresh cookie and header.
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
    assert.ok(
      fresh.cookies[0].includes(`CSRF-Token-${fresh.short}=${fresh.token}`),
      fresh.cookies[0],
    );
    // The piece is the instance's id, shown in the clear by the instance: no report masks it.
    const har = await Deno.readTextFile(`${dir}/run.har`);
    assert.ok(har.includes(`x-csrf-token-${fresh.short}`), "the header's name is shown");
    assert.ok(har.includes("QK7ZMXA-ABCDEFG"), "the device id in the answer is shown");
    assert.ok(!har.includes(fresh.token), "the CSRF token is masked");
  } finally {
    await fresh.close();
    await Deno.remove(dir, { recursive: true });
  }
});
