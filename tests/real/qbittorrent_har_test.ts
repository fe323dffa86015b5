/**
 * `convert har` on the web UI of a real product nobody here wrote:
 * qBittorrent 4.5 from Debian (tests/real/qbittorrent.ts). Its single-page
 * app logs in with a form POST (a `SID` cookie), polls
 * `/api/v2/sync/maindata?rid=N` with the `rid` the previous answer gave,
 * and saves the preferences as one urlencoded field `json` holding every
 * setting the preferences answer gave, the instance's folder and web UI
 * port included. The journey (qbittorrent_journey.ts): log in, add a
 * torrent from a `.torrent` file (the upload dialog's multipart form, whose
 * body Chromium does not record), open its properties and trackers, pause,
 * resume, set an upload limit, delete it, log out.
 *
 * Measured 2026-11-26 on the stored recording (26 steps), converted with the
 * default options and run on a fresh instance with the one variable asked
 * (the password) and the recorded torrent put where the summary says: before,
 * every step passed while the save moved the instance to the recording's
 * folder and web UI port (the values sat inside the form field's JSON, sent
 * as recorded); the `rid` was sent as recorded, and after the capture, a
 * delta answer with nothing changed failed its checks (14 of 26). After
 * har_form_json_test.ts and har_sequence_echo_test.ts, 26 of 26 with the
 * instance's own folder and port kept. On a busy machine the properties read
 * right after the add got 404 (qBittorrent adds after answering `Ok.`): such
 * a read is now retried on 404 (har_later_made_test.ts). Without the file, the upload fails
 * (415) and the steps after it are skipped. The stored recordings run
 * without a browser; a new one is recorded in Chromium with
 * `QBITTORRENT_FRESH=1`.
 */
import assert from "node:assert/strict";
import { ignoreBrowser } from "../support/browser.ts";
import { runCli } from "../support/cli.ts";
import { userEnv } from "../support/convert_apps.ts";
import { hostPaths } from "../support/record_har.ts";
import { runsOf } from "./measure.ts";
import { type Instance, realTest, unlessAsked, withInstance } from "./servers.ts";
import { LOGIN, qbittorrentLaunch, qbittorrentMissing, torrentCount } from "./qbittorrent.ts";
import { publicRecording, recordJourney, sampleTorrent } from "./qbittorrent_journey.ts";

const missing = qbittorrentMissing();
const FIXTURES = new URL("./fixtures/qbittorrent/", import.meta.url).pathname;

/** What a flow sends: its text without the comments and the base URL's recorded default. */
function sent(flow: string): string {
  return flow.split("\n").filter((l) => !l.trimStart().startsWith("#") && !/base_url:/.test(l))
    .join("\n");
}

/**
 * The settings of the instance at `origin` that are its own, and its categories: the upload's
 * text fields, which the recording does not hold, sent "(not recorded)", and qBittorrent made a
 * category of that; an optional field the page left empty is now sent empty.
 */
async function ownSettings(origin: string) {
  const login = await fetch(`${origin}/api/v2/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(LOGIN).toString(),
  });
  await login.body?.cancel();
  const cookie = /SID=[^;]+/.exec(login.headers.get("set-cookie") ?? "")?.[0] ?? "";
  const get = async (path: string) =>
    await (await fetch(`${origin}/api/v2/${path}`, { headers: { cookie } })).json();
  const prefs = await get("app/preferences");
  const categories = Object.keys(await get("torrents/categories"));
  return { save_path: prefs.save_path, web_ui_port: prefs.web_ui_port, categories };
}

/** Converts `har` with `args` into `dir` and says what the summary asked. */
async function convert(har: string, dir: string, args: string[] = []) {
  const flowPath = `${dir}/flow${args.join("")}.yaml`;
  const converted = await runCli(["convert", "har", har, "-o", flowPath, ...args]);
  assert.equal(converted.code, 0, converted.stderr);
  return { flowPath, flow: await Deno.readTextFile(flowPath), summary: converted.stderr };
}

/** Runs the flow at `flowPath` `runs` times on `q` with what it asks: each run's steps and the torrents left. */
async function runOn(q: Instance, flowPath: string, flow: string, runs = 1) {
  const env = userEnv(
    flow,
    q.origin,
    (name) => name === "LOGIN_PASSWORD" ? LOGIN.password : undefined,
  );
  const results = await runsOf(flowPath, env, runs, async ({ steps, passed }, n) => {
    const left = await torrentCount(q.origin);
    console.error(
      `qbittorrent, run ${n}: ${passed} of ${steps.length} steps passed on a fresh instance with ${
        Object.keys(env).join(", ")
      }; ${left} torrents left`,
    );
    return { left };
  });
  return { env, results };
}

realTest(
  "qBittorrent's web UI, recorded in Chromium, passes every step on a fresh instance with only the password and the torrent asked for",
  missing,
  async (dir) => {
    const har = `${FIXTURES}journey.pw.har`;
    const text = await Deno.readTextFile(har);
    assert.deepEqual(hostPaths(text.replaceAll("%2F", "/")), []);
    const { flowPath, flow, summary } = await convert(har, dir);
    assert.match(summary, /Set before running: LOGIN_PASSWORD\./);
    assert.match(summary, /uploads\/upload\.torrent \(step "add", a placeholder/);
    const body = sent(flow);
    // The folder and port the preferences answered, and each rid, are the live ones.
    assert.ok(!body.includes("/srv/qbittorrent-"), flow);
    const port = /127\.0\.0\.1:(\d+)/.exec(flow)?.[1] ?? "";
    assert.ok(port !== "" && !body.includes(`"web_ui_port":${port}`), flow);
    assert.match(body, /"web_ui_port":\$\{steps\.list_preferences(_\d)?\.capture\.web_ui_port\}/);
    assert.match(body, /"save_path":"\$\{steps\.list_preferences(_\d)?\.capture\.save_path\}"/);
    const rids = [...body.matchAll(/maindata\?rid=(\S+?)&/g)].map((m) => m[1]);
    assert.ok(rids.filter((r) => r.startsWith("${steps.get_maindata")).length >= 4, flow);
    assert.ok(rids.every((r) => r === "0" || r.startsWith("${")), rids.join(" "));
    await withInstance(qbittorrentLaunch(), async (q) => {
      const before = await ownSettings(q.origin);
      // As converted, the upload sends the placeholder: refused, and what needs it skipped.
      const asIs = await runOn(q, flowPath, flow);
      const add = asIs.results[0].steps.find((s) => s.name === "add");
      assert.equal(add?.status, "failed", asIs.results[0].run.stdout);
      // The user puts the torrent there, as the summary says.
      await Deno.writeFile(`${dir}/uploads/upload.torrent`, await sampleTorrent());
      const { env, results } = await runOn(q, flowPath, flow, 2);
      assert.deepEqual(Object.keys(env).sort(), ["BASE_URL", "LOGIN_PASSWORD"], flow);
      for (const { run, steps, passed, left } of results) {
        assert.equal(steps.length, 26, flow);
        assert.equal(passed, steps.length, `${run.stdout}\n${flow}`);
        assert.equal(run.code, 0, run.stdout);
        assert.equal(left, 0, flow);
      }
      const after = await ownSettings(q.origin);
      assert.deepEqual(after, before);
      assert.ok(!results[0].run.stdout.includes(LOGIN.password), results[0].run.stdout);
    });
    // The control: sent as recorded, the session cookie is the recording's: refused at once.
    const control = await convert(har, dir, ["--no-correlate"]);
    await withInstance(qbittorrentLaunch(), async (q) => {
      const { results } = await runOn(q, control.flowPath, control.flow);
      assert.equal(results[0].run.code, 1, control.flow);
      assert.ok(results[0].passed <= 1, results[0].run.stdout);
    });
  },
);

realTest(
  "qBittorrent: chrome-har's recording of the same journey passes every step too",
  missing,
  async (dir) => {
    const { flowPath, flow } = await convert(`${FIXTURES}journey.cdp.har`, dir);
    await Deno.writeFile(`${dir}/uploads/upload.torrent`, await sampleTorrent());
    await withInstance(qbittorrentLaunch(), async (q) => {
      const before = await ownSettings(q.origin);
      const { results: [{ run, steps, passed, left }] } = await runOn(q, flowPath, flow);
      assert.equal(passed, steps.length, `${run.stdout}\n${flow}`);
      assert.ok(steps.length >= 20 && left === 0, flow);
      assert.deepEqual(await ownSettings(q.origin), before);
    });
  },
);

realTest(
  "qBittorrent: --verify against a live instance fails only where the upload's placeholder is sent, repairs the peer port, and the verified flow passes there once the torrent is in place",
  missing,
  async (dir) => {
    await withInstance(qbittorrentLaunch(), async (q) => {
      const flowPath = `${dir}/verified.yaml`;
      const verified = await runCli(
        ["convert", "har", `${FIXTURES}journey.pw.har`, "--verify", q.origin, "-o", flowPath],
        { env: { LOGIN_PASSWORD: LOGIN.password } },
      );
      console.error(`qbittorrent --verify: ${/^Verified[^\n]*/m.exec(verified.stderr)?.[0]}`);
      // Verifying sends the placeholder: the add and the steps naming its torrent fail.
      const failing = [...verified.stderr.matchAll(/could not make "(\w+)" pass/g)].map((m) =>
        m[1]
      );
      assert.deepEqual(failing.sort(), [
        "add",
        "list_piece_states",
        "list_properties",
        "list_trackers",
        "list_trackers_2",
      ], verified.stderr);
      assert.match(
        verified.stderr,
        /repaired "set_preferences": sends \$\{steps\.list_preferences(?:_\d)?\.capture\.listen_port\}/,
      );
      await Deno.writeFile(`${dir}/uploads/upload.torrent`, await sampleTorrent());
      const env = { BASE_URL: q.origin, LOGIN_PASSWORD: LOGIN.password };
      const run = await runCli(["run", flowPath], { env });
      assert.equal(run.code, 0, run.stdout);
    });
  },
);

realTest(
  "qBittorrent: a journey recorded now in Chromium passes on a fresh instance",
  missing + unlessAsked("QBITTORRENT_FRESH"),
  async (dir) => {
    const har = await withInstance(qbittorrentLaunch(), async (a) => {
      const recorded = await recordJourney(a.origin);
      return publicRecording(recorded.playwright, a.dir);
    });
    assert.deepEqual(hostPaths(har.replaceAll("%2F", "/")), []);
    await Deno.writeTextFile(`${dir}/journey.har`, har);
    const { flowPath, flow } = await convert(`${dir}/journey.har`, dir);
    await Deno.writeFile(`${dir}/uploads/upload.torrent`, await sampleTorrent());
    await withInstance(qbittorrentLaunch(), async (q) => {
      const { results: [{ run, steps, passed }] } = await runOn(q, flowPath, flow);
      assert.ok(steps.length >= 20 && passed === steps.length, `${run.stdout}\n${flow}`);
    });
  },
  ignoreBrowser,
);
