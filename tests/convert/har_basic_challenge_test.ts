/**
 * `convert har` on a server-rendered admin behind HTTP Basic, as Monit's web UI is
 * (docs/real-servers-har.md): the browser asked the server for the first page without
 * credentials, was answered 401 with a challenge, and sent the request again with the user's
 * `Authorization: Basic …`; the recording keeps one entry for the two, the request as first sent
 * (no Authorization) with the final answer (200). Every later request carried the credentials. The
 * flow sent the first page without them, was refused 401, and every other step was skipped. The
 * evidence: the same origin took Basic credentials later in the recording and this request was
 * not refused, so it was sent with them too; a request the server did refuse (401 kept in the
 * recording) stays as recorded.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";
import { convertHar, convertHars, passesTwiceWithBasic } from "./har_convert.ts";

const AT = "http://127.0.0.1:2812";

/** A stand-in that refuses every request without the Basic credentials it was set up with. */
function standIn(password: string) {
  const wanted = `Basic ${btoa(`admin:${password}`)}`;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (req.headers.get("authorization") !== wanted) {
      return new Response("<h2>Unauthorized</h2>", {
        status: 401,
        headers: { "www-authenticate": 'Basic realm="admin"', "content-type": "text/html" },
      });
    }
    const path = new URL(req.url).pathname;
    if (req.method === "POST") {
      return new Response(null, { status: 302, headers: { location: path } });
    }
    const form = `<form method=POST action=${path.slice(1)}><input type=hidden value='restart' ` +
      `name=action><input type=submit value='Restart'></form>`;
    return new Response(`<html><body><a href='web'>web</a>${form}</body></html>`, {
      headers: { "content-type": "text/html" },
    });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** The journey: the home page (challenged, credentials not kept), a service, restart it. */
function recording(password: string): string {
  const basic: [string, string] = ["Authorization", `Basic ${btoa(`admin:${password}`)}`];
  const page = (path: string) =>
    `<html><body><a href='web'>web</a><form method=POST action=${path.slice(1)}>` +
    `<input type=hidden value='restart' name=action><input type=submit value='Restart'></form>` +
    `</body></html>`;
  return harOf([
    { url: `${AT}/`, headers: [["Accept", "text/html"]], html: page("/") },
    { url: `${AT}/web`, headers: [["Accept", "text/html"], basic], html: page("/web") },
    {
      method: "POST",
      url: `${AT}/web`,
      headers: [basic, ["Content-Type", "application/x-www-form-urlencoded"]],
      mime: "application/x-www-form-urlencoded",
      body: "action=restart",
      status: 302,
      html: "",
    },
    { url: `${AT}/web`, headers: [["Accept", "text/html"], basic], html: page("/web") },
  ]);
}

Deno.test("convert har: a page the browser fetched again after a Basic challenge the recording hid is sent with the credentials the origin took later, and the flow passes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-basic-challenge-" });
  const app = standIn("Ridge-Wren-27");
  try {
    const converted = await convertHar(dir, recording("Kettle-Amber-41"));
    await passesTwiceWithBasic(converted, dir, "Kettle-Amber-41", app.origin, "Ridge-Wren-27");
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har with two recordings: the Basic password the user typed differently each time is asked once, and the challenged first page sends it too", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-two-basic-challenge-" });
  const app = standIn("Ridge-Wren-27");
  try {
    const { converted, flow } = await convertHars(dir, [
      recording("Kettle-Amber-41"),
      recording("Marble-Fox-93"),
    ]);
    assert.match(converted.stderr, /Set before running: BASIC_PASSWORD\./, converted.stderr);
    for (const typed of ["Kettle-Amber-41", "Marble-Fox-93"]) {
      assert.ok(!flow.includes(typed), flow);
    }
    const env = { BASE_URL: app.origin, BASIC_PASSWORD: "Ridge-Wren-27" };
    const out = await runCli(["run", `${dir}/flow.yaml`], { env });
    assert.equal(out.code, 0, `${out.stdout}\n${flow}`);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a request the server refused with 401 in the recording is not given the credentials the origin took later", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-basic-refused-" });
  try {
    const har = JSON.parse(recording("Kettle-Amber-41"));
    har.log.entries[0].response.status = 401;
    const { flow } = await convertHar(dir, JSON.stringify(har));
    const first = flow.slice(
      flow.indexOf("- name:"),
      flow.indexOf("- name:", flow.indexOf("- name:") + 1),
    );
    assert.ok(!first.includes("auth:"), first);
    assert.match(first, /status: 401/, first);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
