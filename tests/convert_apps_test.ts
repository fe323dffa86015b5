/**
 * Record, convert, run, on apps the converter was not built against: each
 * app in `tests/apps/` has stored browser recordings (Playwright `recordHar`
 * and a chrome-har export, re-recorded with `deno task record:apps`). Each
 * recording is converted with default options by the CLI, then run by the
 * CLI against a fresh instance of its app, exactly as a new user would: the
 * flow's base-URL variables pointed at the instance, its required variables
 * set (the password the user knows, anything else to a value a fresh
 * instance cannot know), and nothing else. Every step must pass on the first
 * run, and the flow must pass the QA checks (tests/support/harcheck.ts).
 */
import assert from "node:assert/strict";
import { runCli } from "./support/cli.ts";
import { harCheck } from "./support/harcheck.ts";

/** A running instance of an app. */
interface Instance {
  /** The app's origin, as a user would set it for BASE_URL. */
  origin: string;
  /** Requests the app's third-party hosts received (telemetry, analytics). */
  thirdPartyHits(): Promise<number>;
  close(): Promise<void>;
}

/** One app of the corpus. */
interface App {
  name: string;
  /** Stored recordings, relative to the app's folder. */
  recordings: string[];
  /** The folder under tests/apps. */
  dir: URL;
  /** A fresh instance (new state, keys and id offsets). */
  start(): Promise<Instance>;
  /** The value a new user gives a required variable the flow names, or undefined. */
  known(name: string): string | undefined;
}

/** A port nothing listens on now, on 127.0.0.1. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Starts a Node-style app server (server.mjs) under Deno and waits for its health check. */
async function startNodeApp(
  script: URL,
  env: (port: number, other: number) => Record<string, string>,
  health: string,
): Promise<Instance> {
  const [port, other] = [freePort(), freePort()];
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net=127.0.0.1", "--allow-env", script.pathname],
    env: { ...env(port, other), DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const origin = `http://127.0.0.1:${port}`;
  const close = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.stderr.cancel().catch(() => {});
    await child.status;
  };
  for (let attempt = 0; attempt < 150; attempt++) {
    const ok = await fetch(origin + health).then(async (r) => {
      await r.body?.cancel();
      return r.ok;
    }, () => false);
    if (ok) {
      return {
        origin,
        close,
        thirdPartyHits: async () =>
          (await (await fetch(`${origin}/__stats`)).json()).analytics as number,
      };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await close();
  throw new Error(`${script.pathname} did not answer ${health} within 7.5 s`);
}

const PROJECTLY_PASSWORD = "Wonderland-2024!";

const APPS: App[] = [
  {
    // A bearer SPA with a JSON login, a polled export job, cookie + CSRF
    // settings and a telemetry script from another host (its JSON events come first).
    name: "projectly",
    dir: new URL("./apps/projectly/", import.meta.url),
    recordings: ["full.pw.har", "full.cdp.har", "bearer.pw.har"],
    start: () =>
      startNodeApp(
        new URL("./apps/projectly/server.mjs", import.meta.url),
        (port, other) => ({
          PORT: String(port),
          ANALYTICS_PORT: String(other),
          APP_PASSWORD: PROJECTLY_PASSWORD,
        }),
        "/api/health",
      ),
    known: (name) => name === "LOGIN_PASSWORD" ? PROJECTLY_PASSWORD : undefined,
  },
];

/** The variables the flow's header names: required ones and optional ones, with their text. */
function headerVariables(flow: string): { name: string; required: boolean; text: string }[] {
  const out: { name: string; required: boolean; text: string }[] = [];
  let required = false;
  for (const line of flow.split("\n")) {
    if (!line.startsWith("#")) break;
    if (/^# Set these environment variables/.test(line)) required = true;
    else if (/^# Optional/.test(line)) required = false;
    const m = /^# {3}([A-Z][A-Z0-9_]*)\s+(.*)$/.exec(line);
    if (m) out.push({ name: m[1], required, text: m[2] });
  }
  return out;
}

/** The environment a new user sets: base URLs to the instance, required values they know. */
function userEnv(flow: string, app: App, origin: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const v of headerVariables(flow)) {
    if (/BASE_URL/.test(v.name) || /base URL/i.test(v.text)) env[v.name] = origin;
    else if (v.required) env[v.name] = app.known(v.name) ?? crypto.randomUUID();
  }
  return env;
}

type Report = { flows: { steps: { name: string; status: string }[] }[] };

for (const app of APPS) {
  for (const recording of app.recordings) {
    Deno.test(`${app.name} ${recording}: the default conversion passes on a fresh instance`, async () => {
      const dir = await Deno.makeTempDir({ prefix: `flowrun-${app.name}-` });
      const har = new URL(recording, app.dir).pathname;
      const flowPath = `${dir}/flow.yaml`;
      try {
        const converted = await runCli(["convert", "har", har, "-o", flowPath]);
        assert.equal(converted.code, 0, converted.stderr);
        const flow = await Deno.readTextFile(flowPath);
        const instance = await app.start();
        try {
          const env = userEnv(flow, app, instance.origin);
          const run = await runCli(["run", flowPath, "--report-json", `${dir}/r.json`], { env });
          const report: Report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
          const steps = report.flows[0].steps;
          const passed = steps.filter((s) => s.status === "passed").length;
          assert.ok(
            passed === steps.length && run.code === 0,
            `${passed} of ${steps.length} steps passed with ${
              JSON.stringify(Object.keys(env))
            }\n${converted.stderr}\n${run.stdout}\n${run.stderr}`,
          );
          assert.equal(await instance.thirdPartyHits(), 0, "the flow called a telemetry host");
        } finally {
          await instance.close();
        }
        const found = harCheck(await Deno.readTextFile(har), flow);
        assert.deepEqual(found, {
          leaks: [],
          noiseHeaders: [],
          analyticsCookies: [],
          literalIds: [],
        });
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
}

Deno.test("the QA checks flag a leaked secret, a noise header, an analytics cookie and a literal id", () => {
  const har = JSON.stringify({
    log: {
      entries: [{
        request: {
          url: "https://app.test/api/login",
          postData: { text: JSON.stringify({ username: "ann", password: "hunter2-secret" }) },
        },
        response: { content: { text: JSON.stringify({ id: "prj_9f3a2c", token: "t0k-abcdef" }) } },
      }],
    },
  });
  const flow = [
    "# LOGIN_PASSWORD  was hunter2-secret",
    "steps:",
    "  - name: a",
    "    request:",
    "      url: https://app.test/api/projects/prj_9f3a2c",
    "      headers:",
    "        user-agent: x",
    "        if-match: '\"v1\"'",
    "        cookie: _ga=GA1.2.3",
    "",
  ].join("\n");
  assert.deepEqual(harCheck(har, flow), {
    leaks: ["#0 body password: hunter2-secr…"],
    noiseHeaders: ["user-agent"],
    analyticsCookies: ["_ga"],
    literalIds: ["#0 id: prj_9f3a2c"],
  });
  assert.deepEqual(harCheck(har, "steps: []\n"), {
    leaks: [],
    noiseHeaders: [],
    analyticsCookies: [],
    literalIds: [],
  });
});
