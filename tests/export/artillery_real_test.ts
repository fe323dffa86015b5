/**
 * `flowrun export artillery` run by Artillery itself (2.0.34 from the npm
 * registry, installed once for the tests into the real servers' cache by
 * tests/real/servers.ts; never a dependency of flowrun) against a shop the
 * test starts on 127.0.0.1 (tests/export/shop_server.ts), which records
 * each request with the run id the flow sends, one per virtual user.
 *
 * The reference is `flowrun run` of the same flow. Each of three virtual
 * users must send the same requests in the same order, with the same
 * bodies and the captured token and id flowing into later requests, its
 * own run id and random values, and the secret taken from the environment
 * (never written into the script); a flow whose check fails, by the
 * expect plugin or by the processor's hook, must show as failed in
 * Artillery's JSON report; the project's recipes whose steps the export
 * fully expresses pass in Artillery against the demo API as they do in
 * `flowrun run`; the distributed command lines docs/load-testing.md gives
 * take only flags the installed Artillery has. Slow (fourteen Artillery
 * runs, about 45 CPU-seconds): it belongs to the slow part of the suite.
 */
import assert from "node:assert/strict";
import { artillery, type ArtilleryRun, artilleryRun } from "./artillery_cli.ts";
import { runCli } from "../support/cli.ts";
import { prepare } from "../real/servers.ts";
import { type Received, startShop } from "./shop_server.ts";
import { startDemoApi } from "../../examples/demo_api.ts";

const ARTILLERY = { name: "artillery", version: "2.0.34" };
const installed = await prepare([ARTILLERY]);
const FIXTURES = new URL("../fixtures/export/", import.meta.url).pathname;
const ROOT = new URL("../../", import.meta.url).pathname;
const SECRET = "pw-only-in-the-environment-91c2";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `artillery run artillery.yml --output report.json` in `dir`, with `more` arguments. */
const runIn = (dir: string, env: Record<string, string>, more: string[] = []) =>
  artilleryRun(installed.install!.prefix, dir, env, more);

/** Exports `flow` for `users` virtual users over one second; resolves to the folder. */
async function exportFlow(
  flow: string,
  users: number,
  env: Record<string, string>,
): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-artillery-" });
  const run = await runCli(
    ["export", "artillery", flow, "-o", dir, "--users", String(users), "--duration", "1s"],
    { env },
  );
  assert.equal(run.code, 0, run.stderr);
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile) continue; // files/: the uploads, copies of the flow's own files
    const text = await Deno.readTextFile(`${dir}/${entry.name}`);
    assert.ok(!text.includes(SECRET), `${entry.name} holds the secret`);
  }
  return dir;
}

/**
 * A journey with the values that differ per user replaced by what they are:
 * its run id, the token and id the shop answered (so a capture that did not
 * flow shows), and random values by their shape.
 */
function journey(requests: Received[]): unknown {
  const run = requests[0].run;
  const token = String(requests[0].answer.token);
  const id = String(requests[1].answer.id);
  const name = (text: string) =>
    text.replaceAll(run, "<run>").replaceAll(token, "<token>").replace(UUID, "<uuid>")
      .replace(/^[0-9a-f]{8}$/, "<hex8>").replace(new RegExp(`/${id}(?=/|$)`), "/<id>").replace(
        new RegExp(`([?&]id=)${id}(?=&|$)`),
        "$1<id>",
      );
  return requests.map((r) => ({
    method: r.method,
    path: name(r.path),
    search: name(r.search),
    run: name(r.run),
    requestId: r.requestId === null ? null : name(r.requestId),
    authorization: r.authorization === null ? null : name(r.authorization),
    receipt: r.receipt === null ? null : name(r.receipt),
    body: r.body === null
      ? null
      : JSON.parse(JSON.stringify(r.body, (_k, v) => typeof v === "string" ? name(v) : v)),
  }));
}

/** The shop's requests by run id: one journey per virtual user. */
function byUser(requests: Received[]): Map<string, Received[]> {
  const users = new Map<string, Received[]>();
  for (const r of requests) users.set(r.run, [...users.get(r.run) ?? [], r]);
  return users;
}

Deno.test(
  `each Artillery virtual user sends flowrun run's requests, captures flowing, values its own${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    const shop = startShop(SECRET);
    const env = { SHOP_URL: shop.url, SHOP_PASSWORD: SECRET };
    try {
      const run = await runCli(["run", `${FIXTURES}shop.yaml`, "--run-id", "flowrun-run"], { env });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const reference = shop.received.splice(0);
      assert.equal(reference.length, 3);
      assert.equal(reference[0].body?.password, SECRET);
      const dir = await exportFlow(`${FIXTURES}shop.yaml`, 3, env);
      const artillery = await runIn(dir, env);
      await Deno.remove(dir, { recursive: true });
      assert.equal(artillery.code, 0, artillery.output);
      const users = byUser(shop.received);
      assert.equal(users.size, 3, [...users.keys()].join());
      for (const [runId, requests] of users) {
        assert.match(runId, UUID, "each user's run id is its own");
        assert.deepEqual(journey(requests), journey(reference), `user ${runId}`);
        assert.equal(requests[0].body?.password, SECRET, "the secret came from the environment");
      }
      // Parallel users never share a random value or a made-unique name.
      const all = [...reference, ...shop.received];
      for (
        const pick of [
          (r: Received) => r.requestId,
          (r: Received) => r.body?.tag,
          (r: Received) => r.body?.name,
        ]
      ) {
        const values = all.filter((r) => r.path === "/items").map(pick);
        assert.equal(new Set(values).size, 4, JSON.stringify(values));
      }
      assert.equal(artillery.counters["vusers.completed"], 3, artillery.output);
      assert.equal(artillery.counters["vusers.failed"] ?? 0, 0);
      assert.equal(artillery.counters["plugins.expect.failed"] ?? 0, 0);
      assert.equal(
        artillery.counters["plugins.expect.ok.jmespath"],
        6,
        "each user's qty and owner checks ran",
      );
      assert.equal(
        artillery.counters["plugins.expect.ok.equals"],
        6,
        "each user's capture-fed checks ran",
      );
      // matches, type integer, notEquals a capture, duration_ms: the processor's hook made them.
      assert.equal(artillery.counters["flowrun.checks.ok"], 12, artillery.output);
      assert.equal(artillery.counters["flowrun.checks.failed"] ?? 0, 0);
    } finally {
      await shop.close();
    }
  },
);

/** A failing flow, its export run by Artillery for two users, the environment by `--dotenv`. */
async function failingRun(fixture: string): Promise<ArtilleryRun & { received: Received[] }> {
  const shop = startShop(SECRET);
  const env = { SHOP_URL: shop.url, SHOP_PASSWORD: SECRET };
  try {
    const run = await runCli(["run", `${FIXTURES}${fixture}`], { env });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const dir = await exportFlow(`${FIXTURES}${fixture}`, 2, env);
    // The environment by --dotenv, as the distributed runners take it (docs/load-testing.md).
    const envFile = await Deno.makeTempFile({ suffix: ".env" });
    await Deno.writeTextFile(envFile, `SHOP_URL=${shop.url}\nSHOP_PASSWORD=${SECRET}\n`);
    const artillery = await runIn(dir, {}, ["--dotenv", envFile]);
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(envFile);
    assert.notEqual(artillery.code, 0, artillery.output);
    assert.equal(artillery.counters["vusers.failed"], 2, artillery.output);
    assert.equal(artillery.counters["vusers.completed"] ?? 0, 0);
    return { ...artillery, received: shop.received };
  } finally {
    await shop.close();
  }
}

Deno.test(
  `a check that fails in flowrun run fails the virtual users in Artillery's report${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    // One check the expect plugin makes, one the processor's hook makes, in runs side by side.
    const [plugin, processor, poll] = await Promise.all([
      failingRun("failing.yaml"),
      failingRun("failing_pattern.yaml"),
      failingRun("failing_poll.yaml"),
    ]);
    assert.equal(plugin.counters["errors.Failed expectations for request read"], 2, plugin.output);
    assert.equal(plugin.counters["plugins.expect.failed.jmespath"], 2);
    assert.equal(processor.counters["errors.Failed checks for request read"], 2, processor.output);
    assert.equal(processor.counters["flowrun.checks.failed"], 2);
    assert.match(processor.output, /not ok read: \$\.json\.owner matches "\^bob": got "ann"/);
    // Polling in vain: max_attempts reads per user, in flowrun run and in Artillery, then failed.
    assert.equal(poll.counters["errors.Failed checks for request read"], 2, poll.output);
    assert.match(
      poll.output,
      /not ok read: until not met after 3 attempts: \$\.json\.owner equals "bob"/,
    );
    const reads = byUser(poll.received.filter((r) => r.path === "/items/1"));
    assert.deepEqual(
      [...reads.values()].map((r) => r.length),
      [3, 3, 3],
      "flowrun's and each user's",
    );
  },
);

Deno.test(
  `a setup flow runs once, in Artillery's before: section, its outputs read by every user${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    const shop = startShop(SECRET);
    const env = { SHOP_URL: shop.url, SHOP_PASSWORD: SECRET };
    const setup = ["--setup", `${FIXTURES}setup_login.yaml`];
    try {
      const run = await runCli(["run", `${FIXTURES}uses_setup.yaml`, ...setup], { env });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.deepEqual(shop.received.splice(0).map((r) => `${r.method} ${r.path}`), [
        "POST /login",
        "GET /items/1",
      ]);
      const dir = await Deno.makeTempDir({ prefix: "flowrun-artillery-" });
      const exported = await runCli(
        [
          "export",
          "artillery",
          `${FIXTURES}uses_setup.yaml`,
          ...setup,
          "-o",
          dir,
          "--users",
          "3",
          "--duration",
          "1s",
        ],
        { env },
      );
      assert.equal(exported.code, 0, exported.stderr);
      const artillery = await runIn(dir, env);
      await Deno.remove(dir, { recursive: true });
      assert.equal(artillery.code, 0, artillery.output);
      const logins = shop.received.filter((r) => r.path === "/login");
      const reads = shop.received.filter((r) => r.path === "/items/1");
      assert.equal(logins.length, 1, "the setup ran once");
      assert.equal(reads.length, 3);
      const token = `Bearer ${logins[0].answer.token}`;
      assert.deepEqual(reads.map((r) => r.authorization), [token, token, token]);
      assert.equal(new Set(reads.map((r) => r.run)).size, 3, "three users");
    } finally {
      await shop.close();
    }
  },
);

/** The project's recipes whose every step and check the export expresses. */
const RECIPES = [
  "assertions.yaml",
  "expressions.yaml",
  "unique_data_per_run.yaml",
  "poll_async_job.yaml",
  "http_requests.yaml",
  "foreach_cleanup.yaml",
  "auth_oauth2.yaml",
];

Deno.test(
  `the recipes pass in Artillery against the demo API as in flowrun run${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    const api = await startDemoApi();
    // The demo's credentials, set where Artillery runs as the export's summary asks: a
    // credential's default in a flow is never written into the load script.
    const env = {
      BASE_URL: api.url,
      DEMO_USER: "demo",
      DEMO_PASSWORD: "demo-password",
      DEMO_API_KEY: "demo-api-key",
      CLIENT_ID: "demo-client",
      CLIENT_SECRET: "demo secret+/=:",
    };
    try {
      // Two at a time: each is an Artillery process of its own.
      for (let i = 0; i < RECIPES.length; i += 2) {
        await Promise.all(
          RECIPES.slice(i, i + 2).map(async (recipe) => {
            const flow = `${ROOT}examples/recipes/${recipe}`;
            const report = await Deno.makeTempFile({ suffix: ".json" });
            const run = await runCli(["run", flow, "--report-json", report], { env });
            assert.equal(run.code, 0, `${recipe}: ${run.stdout}`);
            // What run sent: a request per attempt of each step (foreach iterations, polls).
            const steps: { name: string; attempts: number }[] =
              JSON.parse(await Deno.readTextFile(report)).flows[0].steps;
            await Deno.remove(report);
            // An OAuth2 token request ("auth › oauth2 token") is the processor's, outside Artillery's count.
            const sent = steps.filter((step) => !step.name.startsWith("auth › "))
              .reduce((sum, step) => sum + step.attempts, 0);
            const dir = await exportFlow(flow, 1, env);
            const artillery = await runIn(dir, env);
            await Deno.remove(dir, { recursive: true });
            assert.equal(artillery.code, 0, `${recipe}: ${artillery.output}`);
            assert.equal(artillery.counters["vusers.completed"], 1, recipe);
            assert.equal(artillery.counters["plugins.expect.failed"] ?? 0, 0, recipe);
            assert.equal(artillery.counters["flowrun.checks.failed"] ?? 0, 0, recipe);
            assert.ok((artillery.counters["plugins.expect.ok"] ?? 0) > 0, `${recipe}: checks ran`);
            assert.equal(
              artillery.counters["http.requests"],
              sent,
              `${recipe}: as many requests as run`,
            );
          }),
        );
      }
    } finally {
      await api.close();
    }
  },
);

Deno.test(
  `the distributed command lines of docs/load-testing.md take only flags Artillery has${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    const doc = await Deno.readTextFile(new URL("../../docs/load-testing.md", import.meta.url));
    const lines = [
      ...doc.matchAll(/^artillery (run(?:-fargate|-lambda)?) artillery\.yml (.*?)(?:\s+#.*)?$/gm),
    ];
    assert.ok(lines.filter((m) => m[1] !== "run").length >= 4, "the distributed command lines");
    const helps = new Map<string, string>();
    for (const [line, subcommand, rest] of lines) {
      if (!helps.has(subcommand)) {
        const help = await artillery(
          installed.install!.prefix,
          [subcommand, "--help"],
          Deno.cwd(),
          {},
        );
        helps.set(subcommand, new TextDecoder().decode(help.stdout));
      }
      for (const [flag] of rest.matchAll(/--[a-z-]+/g)) {
        assert.match(helps.get(subcommand)!, new RegExp(`${flag}(?![\\w-])`), `${line}: ${flag}`);
      }
    }
  },
);
