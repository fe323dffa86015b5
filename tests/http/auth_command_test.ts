/**
 * `bearer: {command: […]}` through the CLI, with real programs (Deno itself:
 * `[deno, eval, "…"]`, so no other program is needed) and an API that takes
 * only the printed token: one run of the command for many flows at
 * --jobs 4 (the command counts its runs in a file), one run per distinct
 * argument list, a 401 answered by one more run, each failure (exit code,
 * stderr echoing the token, no output, two lines, too much output, a
 * timeout, a missing program, no Deno permission) one plain message naming
 * the program, the token in no output (-vv console, JSON, JUnit, HTML, log),
 * and --allow-commands missing: a positioned load problem before any request.
 */
import assert from "node:assert/strict";
import { runCli, spawnCli } from "../support/cli.ts";
import { commandBearer } from "../../lib/http/auth_command.ts";
import { TokenCache } from "../../lib/http/token_cache.ts";
import { withFiles } from "../support/with_files.ts";
import { readReports, reportOptions } from "../support/run_reports.ts";

const DENO = Deno.execPath();
const TOKEN = "cmd-SECRET-token-8f3a";

/** Runs the CLI as the documented source run does, with Deno's run permission (`allowRun`). */
function cli(args: string[], allowRun: string, env: Record<string, string> = {}) {
  return runCli(args, { env, allow: [allowRun] });
}

/** An API that answers 200 to `Bearer <one of tokens>`, 401 otherwise, counting requests. */
function api(tokens: () => string[]) {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const auth = req.headers.get("authorization") ?? "";
    seen.push(auth);
    return tokens().some((t) => auth === `Bearer ${t}`)
      ? Response.json({ ok: true })
      : Response.json({ error: "invalid_token" }, { status: 401 });
  });
  return { base: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

/** A `deno eval` command as a flow's YAML list: the script appends a line to COUNT_FILE, then `body`. */
function command(body: string, ...extra: string[]): string {
  const code =
    `Deno.writeTextFileSync(Deno.env.get("COUNT_FILE"), "run\\n", {append: true}); ${body}`;
  return JSON.stringify([DENO, "eval", code, ...extra]);
}

function flow(name: string, auth = "", steps = 2): string {
  let text = `name: ${name}\n${auth}steps:\n`;
  for (let i = 0; i < steps; i++) {
    text +=
      `  - name: s${i}\n    request: {url: "\${ENV.BASE}/x/${i}"}\n    assert: {status: 200}\n`;
  }
  return text;
}

async function outputs(dir: string, run: { stdout: string; stderr: string }) {
  const { json, junit, html, log } = await readReports(dir);
  return { all: [run.stdout, run.stderr, json, junit, html, log], report: JSON.parse(json) };
}

async function runs(dir: string): Promise<number> {
  const text = await Deno.readTextFile(`${dir}/count`).catch(() => "");
  return text.split("\n").filter(Boolean).length;
}

Deno.test("one run of the command for many flows at --jobs 4; another argument list runs once more", async () => {
  const server = api(() => [TOKEN, `${TOKEN}-b`]);
  try {
    // The auth file's command reads an expression in its arguments: the token is "<prefix>-8f3a".
    const authFile = `auth:\n  bearer:\n    command: ${
      command("console.log('  ' + Deno.args[0] + '-8f3a  ')", "${ENV.PREFIX}")
    }\n`;
    const files: Record<string, string> = { "auth.yaml": authFile };
    for (let i = 0; i < 6; i++) files[`f${i}.yaml`] = flow(`f${i}`);
    files["other.yaml"] = flow(
      "other",
      `auth:\n  bearer:\n    command: ${command(`console.log('${TOKEN}-b')`)}\n`,
    );
    await withFiles(files, async (dir) => {
      const run = await cli(
        [
          "run",
          // The flows by name: the auth file beside them is not a flow.
          ...Object.keys(files).filter((f) => f !== "auth.yaml").map((f) => `${dir}/${f}`),
          "--auth-file",
          `${dir}/auth.yaml`,
          "--allow-commands",
          "--jobs",
          "4",
          "-vv",
          ...reportOptions(dir),
        ],
        `--allow-run=${DENO}`,
        { BASE: server.base, COUNT_FILE: `${dir}/count`, PREFIX: "cmd-SECRET-token" },
      );
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.equal(await runs(dir), 2, "once for the auth file's list, once for the other flow's");
      assert.equal(server.seen.length, 14);
      const { all, report } = await outputs(dir, run);
      assert.equal(report.flows.length, 7);
      for (const text of all) {
        assert.ok(!text.includes(TOKEN), `the token in ${text.slice(0, 200)}`);
      }
      assert.match(run.stdout, /> authorization: \*\*\*\n/);
    });
  } finally {
    await server.close();
  }
});

Deno.test("a 401 runs the command once more and sends the request again", async () => {
  // The API takes the second token only: the first run's is refused as if it had expired.
  const server = api(() => ["tok-SECRET-2"]);
  try {
    const body =
      "const n = Deno.readTextFileSync(Deno.env.get('COUNT_FILE')).split('\\n').filter(Boolean).length; console.log('tok-SECRET-' + n)";
    await withFiles(
      { "f.yaml": flow("f", `auth:\n  bearer: {command: ${command(body)}}\n`, 1) },
      async (dir) => {
        const run = await cli(
          ["run", `${dir}/f.yaml`, "--allow-commands", ...reportOptions(dir)],
          `--allow-run=${DENO}`,
          {
            BASE: server.base,
            COUNT_FILE: `${dir}/count`,
          },
        );
        assert.equal(run.code, 0, run.stdout + run.stderr);
        assert.equal(await runs(dir), 2);
        const { all, report } = await outputs(dir, run);
        assert.equal(report.flows[0].steps[0].attempts, 2);
        for (const text of all) assert.ok(!/tok-SECRET-[12]/.test(text), text.slice(0, 300));
      },
    );
  } finally {
    await server.close();
  }
});

Deno.test("each way a command fails is the step's error naming the program, the token masked", async () => {
  const server = api(() => [TOKEN]);
  const echo = `console.log('${TOKEN}'); console.error('login failed for ${TOKEN}'); Deno.exit(3)`;
  const cases: [string, string, RegExp][] = [
    [
      "exit",
      command(echo),
      /^The bearer token command ".*deno" exited with code 3: login failed for \*+$/,
    ],
    ["empty", command("console.log('   ')"), /printed no token \(its stdout was empty\)\.$/],
    ["lines", command(`console.log('${TOKEN}\\nmore')`), /printed more than one line or word/],
    [
      "large",
      command("console.log('x'.repeat(70000))"),
      /failed: it printed more than 64 KiB and was killed\.$/,
    ],
    [
      "slow",
      command("console.error('waiting'); await new Promise((r) => setTimeout(r, 20000))"),
      /failed: it ran longer than 1500 ms and was killed: waiting$/,
    ],
    [
      "missing",
      JSON.stringify(["flowrun-surely-no-such-program", "x"]),
      /^The bearer token command "flowrun-surely-no-such-program" failed: it was not found/,
    ],
  ];
  const files: Record<string, string> = {};
  for (const [name, list] of cases) {
    files[`${name}.yaml`] = flow(name, `auth:\n  bearer: {command: ${list}}\n`, 1);
  }
  try {
    await withFiles(files, async (dir) => {
      const run = await cli(
        ["run", dir, "--allow-commands", "--timeout", "1500ms", "-vv", ...reportOptions(dir)],
        "--allow-run",
        {
          BASE: server.base,
          COUNT_FILE: `${dir}/count`,
        },
      );
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.equal(server.seen.length, 0, "no request without a token");
      const { all, report } = await outputs(dir, run);
      for (const [name, , want] of cases) {
        const step = report.flows.find((f: { name: string }) => f.name === name).steps[0];
        assert.equal(step.status, "error", name);
        assert.match(step.message, want, name);
      }
      // A step's position is "at f.yaml:5:5"; a stack frame would name a module.
      assert.doesNotMatch(run.stdout + run.stderr, /\bat .*\.(?:ts|js):\d+:\d+/, "no stack trace");
      assert.match(
        run.stdout,
        /reproduce: deno run --v8-flags=\S+ --allow-net --allow-read --allow-write --allow-env --allow-run cli\.ts run .* --allow-commands/,
      );
      for (const text of all) {
        assert.ok(!text.includes(TOKEN), `the token in ${text.slice(0, 300)}`);
      }
    });
  } finally {
    await server.close();
  }
});

Deno.test("without --allow-commands: a positioned load problem, nothing sent; without Deno's permission: the step says how", async () => {
  const server = api(() => [TOKEN]);
  try {
    const files = {
      "a.yaml": flow("a"),
      "f.yaml": flow("f", `auth:\n  bearer:\n    command: ${command(`console.log('${TOKEN}')`)}\n`),
    };
    await withFiles(files, async (dir) => {
      const env = { BASE: server.base, COUNT_FILE: `${dir}/count` };
      for (const sub of ["run", "validate"]) {
        const refused = await runCli([sub, dir], { env });
        assert.equal(refused.code, 2, refused.stdout + refused.stderr);
        assert.match(
          refused.stdout + refused.stderr,
          /f\.yaml:4:5 error\[command-not-allowed\]: "command" of "bearer" of the flow runs the program ".*deno"/,
        );
      }
      const valid = await runCli(["validate", dir, "--allow-commands"], { env });
      assert.equal(valid.code, 0, valid.stdout + valid.stderr);
      assert.equal(server.seen.length, 0);
      assert.equal(await runs(dir), 0);
      // The runner's own permissions have no --allow-run: the step fails and says where it is given.
      const denied = await runCli([
        "run",
        `${dir}/f.yaml`,
        "--allow-commands",
        "--report-json",
        `${dir}/r.json`,
      ], { env });
      assert.equal(denied.code, 1);
      const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
      assert.match(
        report.flows[0].steps[0].message,
        /failed: it may not be run: this process lacks Deno's permission to run it\. The flowrun binaries and installs never have it: run flowrun from source with deno run --allow-run=PROGRAM/,
      );
      assert.equal(server.seen.length, 0);
    });
  } finally {
    await server.close();
  }
});

Deno.test("refresh_after runs the command again once its token is that old", async () => {
  await withFiles({}, async (dir) => {
    const code =
      `Deno.writeTextFileSync(${JSON.stringify(`${dir}/count`)}, "run\\n", {append: true}); ` +
      "console.log('t-' + Date.now())";
    const spec = {
      kind: "bearer" as const,
      command: [DENO, "eval", code].map((s) => ({ source: s, parts: [s] })),
      refreshAfterMs: 50,
    };
    const services = {
      secret: () => {},
      env: () => undefined,
      timeoutMs: 20_000,
      tokens: new TokenCache(),
    };
    const tokens: string[] = [];
    for (let i = 0; i < 3; i++) {
      const request = { method: "GET", url: "http://x.test/", headers: [] as [string, string][] };
      await commandBearer(spec, (t) => t.source, services).apply(request);
      tokens.push(request.headers[0][1]);
      if (i === 0) continue;
      await new Promise((r) => setTimeout(r, 80));
    }
    assert.equal(tokens[0], tokens[1], "fresh: the same token");
    assert.notEqual(tokens[1], tokens[2], "older than refresh_after: run again");
    assert.equal(await runs(dir), 2);
  });
});

Deno.test({
  name: "a token command's background children end when flowrun is interrupted",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    // Seen: a `sleep` under `sh -c` outlived flowrun.
    const dir = await Deno.makeTempDir({ prefix: "flowrun-cmd-group-" });
    try {
      const pidFile = `${dir}/pid`;
      const argv = ["sh", "-c", `sleep 300 & echo $! > ${pidFile}; sleep 300; echo tok`];
      await Deno.writeTextFile(
        `${dir}/f.yaml`,
        `name: g\nauth:\n  bearer: {command: ${JSON.stringify(argv)}}\nsteps:\n` +
          `  - name: s\n    request: {url: "http://127.0.0.1:9/"}\n`,
      );
      const child = spawnCli(["run", `${dir}/f.yaml`, "--allow-commands"], {
        allow: ["--allow-run"],
        stdout: "null",
        stderr: "null",
      });
      let pid = NaN;
      for (let look = 0; look < 3000 && Number.isNaN(pid); look++) {
        pid = Number((await Deno.readTextFile(pidFile).catch(() => "")).trim() || NaN);
        if (Number.isNaN(pid)) await new Promise((r) => setTimeout(r, 10));
      }
      assert.ok(!Number.isNaN(pid), "the command started");
      child.kill("SIGINT");
      const status = await child.status;
      assert.notEqual(status.code, 0);
      let alive = true;
      for (let look = 0; look < 1000 && alive; look++) {
        const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
        alive = stat !== "" && !/^\d+ \(.*\) [ZX]/.test(stat);
        if (alive) await new Promise((r) => setTimeout(r, 10));
      }
      assert.ok(!alive, `the background sleep ${pid} outlived flowrun`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
