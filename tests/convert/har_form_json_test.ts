/**
 * `convert har` on settings read and saved back as JSON inside a form field,
 * as qBittorrent's web UI does (tests/real/qbittorrent_har_test.ts): `GET
 * /api/v2/app/preferences` answers the instance's own folder (`save_path`)
 * and the port its web UI listens on (`web_ui_port`), and the save is a
 * urlencoded POST whose one field `json` holds every preference, those
 * included. Sent as recorded, the save moves a fresh instance to the
 * recording's folder and port: every step passes, the instance is broken.
 * Both values came from the answer: the folder by its shape (an instance
 * path), the port by being the recorded origin's own. Widened to the class:
 * an id the answer handed out inside the same JSON, a form of two fields
 * and JSON in a list; a field the user changed and plain settings stay
 * literal.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";
import { harOf } from "../support/har_records.ts";

const RECORDED_DIR = "/srv/qbt-5d20a9c4e1/downloads";

/** A stand-in with a folder and port of its own: a save naming another folder or port is refused. */
function standIn(folder: string) {
  const errors: string[] = [];
  const instance = `inst_${crypto.randomUUID().slice(0, 8)}`;
  let port = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/prefs") {
      return Response.json({
        save_path: folder,
        web_ui_port: port,
        instance,
        max_connec: 500,
        up_limit: 0,
      });
    }
    const form = new URLSearchParams(await req.text());
    const parsed = JSON.parse(form.get("json") ?? "{}");
    const prefs = Array.isArray(parsed) ? parsed[0] : parsed;
    const ok = prefs.save_path === folder && prefs.web_ui_port === port &&
      prefs.instance === instance && prefs.up_limit === 524288;
    if (!ok) errors.push(`${url.pathname} ${form.get("json")}`);
    return new Response(ok ? "" : "Bad folder or port", { status: ok ? 200 : 400 });
  });
  port = server.addr.port;
  const origin = `http://127.0.0.1:${port}`;
  return { origin, errors, close: () => server.shutdown() };
}

function recording(): string {
  const prefs = {
    save_path: RECORDED_DIR,
    web_ui_port: 4242,
    instance: "inst_7c1e9d2a",
    max_connec: 500,
    up_limit: 0,
  };
  const saved = JSON.stringify({ ...prefs, up_limit: 524288 });
  const form = "application/x-www-form-urlencoded; charset=UTF-8";
  return harOf([
    { url: "http://127.0.0.1:4242/prefs", json: prefs },
    {
      method: "POST",
      url: "http://127.0.0.1:4242/setPrefs",
      headers: [["Content-Type", form]],
      body: `json=${encodeURIComponent(saved)}`,
      mime: form,
      status: 200,
    },
    {
      method: "POST",
      url: "http://127.0.0.1:4242/setPrefsAgain",
      headers: [["Content-Type", form]],
      body: `note=${encodeURIComponent("a b")}&json=${encodeURIComponent(`[${saved}]`)}`,
      mime: form,
      status: 200,
    },
  ]);
}

Deno.test("convert har: JSON in a form field sends back the folder and port an answer handed out as captures, and the flow passes on an instance with others", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-form-json-" });
  const app = standIn(`/srv/qbt-${crypto.randomUUID().slice(0, 10)}/downloads`);
  try {
    const { flow } = await convertHar(dir, recording());
    const sent = flow.split("\n").filter((line) => !line.trimStart().startsWith("#")).join("\n");
    assert.ok(!sent.includes("5d20a9c4e1"), flow);
    assert.ok(!/"web_ui_port":4242/.test(sent) && !sent.includes("inst_7c1e9d2a"), flow);
    assert.equal(sent.match(/\$\{steps\.list_prefs\.capture\.save_path\}/g)?.length, 2, flow);
    assert.equal(
      sent.match(/"web_ui_port":\$\{steps\.list_prefs\.capture\.web_ui_port\}/g)?.length,
      2,
      flow,
    );
    assert.equal(
      sent.match(/"instance":"\$\{steps\.list_prefs\.capture\.instance\}"/g)?.length,
      2,
      flow,
    );
    // What the user changed and the plain settings are sent as recorded.
    assert.equal(sent.match(/"max_connec":500,"up_limit":524288/g)?.length, 2, flow);
    const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: app.origin } });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
