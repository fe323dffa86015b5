/**
 * `convert har` on the web UI of a real product nobody here wrote: the
 * Transmission BitTorrent daemon 3.00 from Debian (tests/real/transmission.ts).
 * Its single-page app talks JSON-RPC to `/transmission/rpc`, guarded by a
 * server-issued anti-CSRF header: the first call is answered 409 with
 * `X-Transmission-Session-Id`, and every later call sends that id back; a
 * new daemon issues a new id. The journey (transmission_journey.ts): open
 * the UI, add a torrent from a `.torrent` file (base64 `metainfo`), open its
 * inspector, turn on a speed limit in the preferences, pause, resume,
 * remove. `session-get` also answers the daemon's own download folder, which
 * `free-space` and `torrent-add` send back.
 *
 * Measured 2026-11-26 on the stored recording (20 steps): before, 5 passed
 * on a fresh daemon (the folder was sent as recorded); after the converter
 * captured a path an answer handed out (har_handed_paths_test.ts), 20. The
 * session id is captured from the 409's header by provenance, whatever its
 * name. With RPC authentication on, the one variable asked is the Basic
 * credential. The stored recordings run without a browser; a new one is
 * recorded in Chromium with `TRANSMISSION_FRESH=1`.
 */
import assert from "node:assert/strict";
import { ignoreBrowser } from "../support/browser.ts";
import { runCli } from "../support/cli.ts";
import { userEnv } from "../support/convert_apps.ts";
import { hostPaths } from "../support/record_har.ts";
import { runsOf } from "./measure.ts";
import { type Instance, realTest, start, unlessAsked } from "./servers.ts";
import {
  type RpcAuth,
  startWithAuth,
  transmissionLaunch,
  transmissionMissing,
} from "./transmission.ts";
import { publicRecording, recordJourney } from "./transmission_journey.ts";

const missing = transmissionMissing();
const FIXTURES = new URL("./fixtures/transmission/", import.meta.url).pathname;
/** The RPC login of the authenticated recording (`auth.pw.har`). */
const AUTH: RpcAuth = { user: "ada", password: "Quill-Harbor-77" };
const BASIC = btoa(`${AUTH.user}:${AUTH.password}`);

/** A fresh daemon (authenticated when `auth`), stopped after `fn`. */
async function withDaemon<T>(auth: boolean, fn: (d: Instance) => Promise<T>): Promise<T> {
  const daemon = auth ? await startWithAuth(AUTH) : await start(transmissionLaunch());
  try {
    return await fn(daemon);
  } finally {
    await daemon.close();
  }
}

/** What a flow sends: its text without the comments (which quote the recording). */
function sent(flow: string): string {
  return flow.split("\n").filter((l) => !l.trimStart().startsWith("#")).join("\n");
}

/** How many torrents the daemon at `origin` holds (its RPC, after the 409 that names the id). */
async function torrentCount(origin: string, auth: boolean): Promise<number> {
  const headers: Record<string, string> = auth ? { authorization: `Basic ${BASIC}` } : {};
  const body = JSON.stringify({ method: "torrent-get", arguments: { fields: ["id"] } });
  const url = `${origin}/transmission/rpc`;
  const first = await fetch(url, { method: "POST", headers, body });
  await first.body?.cancel();
  headers["x-transmission-session-id"] = first.headers.get("x-transmission-session-id") ?? "";
  const answer = await (await fetch(url, { method: "POST", headers, body })).json();
  return answer.arguments.torrents.length;
}

/**
 * Converts `har` with `args`, runs the flow `runs` times on one fresh daemon with what it asks
 * for: each run's steps and the torrents the daemon held after it (the journey removes the one
 * it added, so none unless a step named another torrent than its own).
 */
async function convertAndRun(
  har: string,
  dir: string,
  auth: boolean,
  args: string[] = [],
  runs = 1,
) {
  const flowPath = `${dir}/flow${args.join("")}${auth ? ".auth" : ""}.yaml`;
  const converted = await runCli(["convert", "har", har, "-o", flowPath, ...args]);
  assert.equal(converted.code, 0, converted.stderr);
  const flow = await Deno.readTextFile(flowPath);
  return await withDaemon(auth, async (b) => {
    // The user knows their login: the Basic credential is the one thing asked besides the URL.
    const env = userEnv(
      flow,
      b.origin,
      (name) => name === "BASIC_PASSWORD" ? AUTH.password : undefined,
    );
    const results = await runsOf(flowPath, env, runs, async ({ steps, passed }, n) => {
      const left = await torrentCount(b.origin, auth);
      console.error(
        `transmission${auth ? " (auth)" : ""}${
          args.join(" ")
        }, run ${n}: ${passed} of ${steps.length} steps passed on a fresh daemon with ${
          Object.keys(env).join(", ")
        }; ${left} torrents left`,
      );
      return { left };
    });
    return { flow, env, ...results[0], results };
  });
}

/** The recorded values that must never be sent as recorded: the session id and the folder. */
function recordedOnly(har: string): string[] {
  const ids = [...har.matchAll(/"name":\s*"x-transmission-session-id",\s*"value":\s*"([^"]+)"/gi)];
  const folders = [...har.matchAll(/\/srv\/transmission-[0-9a-f]+/g)];
  return [...new Set([...ids, ...folders].map((m) => m[1] ?? m[0]))];
}

realTest(
  "Transmission's web UI, recorded in Chromium, passes every step on a fresh daemon with only its base URL",
  missing,
  async (dir) => {
    const har = `${FIXTURES}journey.pw.har`;
    const text = await Deno.readTextFile(har);
    assert.deepEqual(hostPaths(text), []);
    const { flow, env, results } = await convertAndRun(har, dir, false, [], 2);
    assert.deepEqual(Object.keys(env), ["BASE_URL"], flow);
    assert.match(flow, /\{ header: x-transmission-session-id \}/);
    assert.match(flow, /download_dir: \$\.json\.arguments\['download-dir'\]/);
    const recorded = recordedOnly(text);
    assert.ok(recorded.length >= 2, recorded.join(" "));
    for (const value of recorded) assert.ok(!sent(flow).includes(value), `${value}\n${flow}`);
    // The torrent's id is the one torrent-add answered: 1 on the first run, 2 on the second,
    // whose pause, resume and remove must name it (Transmission ignores an unknown id).
    assert.match(flow, /ids: \["\$\{steps\.torrent_add\.capture\.torrent_added_id\}"\]/);
    for (const { run, steps, passed, left } of results) {
      assert.equal(steps.length, 20, flow);
      assert.equal(passed, steps.length, `${run.stdout}\n${flow}`);
      assert.equal(run.code, 0, run.stdout);
      assert.equal(left, 0, flow);
    }
    // The control: the same recording sent as recorded fails at the first resend (409).
    const control = await convertAndRun(har, dir, false, ["--no-correlate"]);
    assert.equal(control.run.code, 1, control.flow);
    assert.ok(control.passed <= 1, control.run.stdout);
  },
);

realTest(
  "Transmission with RPC authentication: the Basic credential is the one variable asked, never written, and every step passes on a fresh daemon",
  missing,
  async (dir) => {
    const har = `${FIXTURES}auth.pw.har`;
    const { flow, env, run, steps, passed } = await convertAndRun(har, dir, true);
    assert.deepEqual(Object.keys(env).sort(), ["BASE_URL", "BASIC_PASSWORD"], flow);
    assert.ok(!flow.includes(AUTH.password) && !flow.includes(BASIC), flow);
    // The user sets the password, not base64 of user:password: the step's auth sends it.
    assert.match(flow, /basic:\n\s+username: \S+\n\s+password: \$\{ENV\.BASIC_PASSWORD\}/);
    assert.ok(!/authorization: Basic/i.test(flow), flow);
    assert.equal(steps.length, 20, flow);
    assert.equal(passed, steps.length, `${run.stdout}\n${flow}`);
    // The run's output masks the credential it sent.
    assert.ok(!run.stdout.includes(BASIC), run.stdout);
  },
);

realTest(
  "Transmission: --verify against a live daemon passes, and the verified flow passes there",
  missing,
  async (dir) => {
    await withDaemon(false, async (c) => {
      const flowPath = `${dir}/verified.yaml`;
      const verified = await runCli([
        "convert",
        "har",
        `${FIXTURES}journey.pw.har`,
        "--verify",
        c.origin,
        "-o",
        flowPath,
      ]);
      console.error(`transmission --verify: ${/^Verified[^\n]*/m.exec(verified.stderr)?.[0]}`);
      assert.equal(verified.code, 0, verified.stderr);
      assert.match(verified.stderr, /Verified 20 steps against \S+: all pass\./);
      const run = await runCli(["run", flowPath], { env: { BASE_URL: c.origin } });
      assert.equal(run.code, 0, run.stdout);
    });
  },
);

realTest(
  "Transmission: a journey recorded now in Chromium passes on a fresh daemon",
  missing + unlessAsked("TRANSMISSION_FRESH"),
  async (dir) => {
    for (const auth of [false, true]) {
      const har = await withDaemon(auth, async (a) => {
        const recorded = await recordJourney(
          a.origin,
          auth ? { username: AUTH.user, password: AUTH.password } : undefined,
        );
        return publicRecording(recorded.playwright, a.dir);
      });
      assert.deepEqual(hostPaths(har), []);
      await Deno.writeTextFile(`${dir}/journey.har`, har);
      const { flow, run, steps, passed } = await convertAndRun(`${dir}/journey.har`, dir, auth);
      assert.ok(steps.length >= 20 && passed === steps.length, `${run.stdout}\n${flow}`);
    }
  },
  ignoreBrowser,
);
