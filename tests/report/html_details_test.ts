/**
 * What the HTML report of a real run shows (issue 54, item 8), through the
 * CLI against a server the test starts, the page opened in Chromium: a
 * failed capture is a row of its step's assertions table; the OAuth2 token
 * entry points at the auth file that asked for it; setup flows come first
 * and teardown flows last, whatever their status and path; the header says
 * how many worker threads ran. The JSON report carries the same facts.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { toHtml } from "../../lib/report/html.ts";
import { runFlows } from "../../lib/run/flows.ts";
import { runCli } from "../support/cli.ts";
import { ignoreBrowser, whyBrowserIgnored, withPage } from "../support/browser.ts";
import "../support/engines.ts";

/** A token endpoint (client credentials, HTTP Basic) and an API that wants its token. */
function server() {
  let tokens = 0;
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/token") {
      const form = new URLSearchParams(await req.text());
      const basic = `Basic ${btoa("client-1:s3cret")}`;
      if (
        form.get("grant_type") !== "client_credentials" ||
        req.headers.get("authorization") !== basic
      ) {
        return Response.json({ error: "invalid_client" }, { status: 401 });
      }
      tokens++;
      return Response.json({ access_token: "tok-9f8e7d", token_type: "Bearer", expires_in: 3600 });
    }
    // Setup flows run before the run's auth may be used (it may read their outputs).
    if (url.pathname !== "/open" && req.headers.get("authorization") !== "Bearer tok-9f8e7d") {
      return new Response("no token", { status: 401 });
    }
    return Response.json({ id: 7 });
  });
  return {
    base: `http://127.0.0.1:${srv.addr.port}`,
    tokens: () => tokens,
    close: () => srv.shutdown(),
  };
}

const AUTH = `# The run's auth: every flow's requests carry its token.
auth:
  oauth2:
    grant_type: client_credentials
    token_url: \${ENV.TOKEN_URL}
    client_id: \${ENV.CLIENT_ID}
    client_secret: \${ENV.CLIENT_SECRET}
`;

/** A one-step flow calling `path`, with `extra` under the step. */
function flow(name: string, extra = "", path = "/item") {
  return `name: ${name}\nsteps:\n  - name: get item\n    request: {url: "\${ENV.BASE}${path}"}\n    assert: {status: 200}\n${extra}`;
}

/** Writes the files, runs the CLI with `args`, gives the exit code, the HTML and JSON reports. */
async function runIn(dir: string, base: string, args: string[]) {
  const run = await runCli([
    "run",
    "b_passes.yaml",
    "c_capture.yaml",
    "d_own_auth.yaml",
    "--setup",
    "zz_setup.yaml",
    "--teardown",
    "aa_teardown.yaml",
    "--auth-file",
    "auth.yaml",
    "--report-html",
    "report.html",
    "--report-json",
    "report.json",
    ...args,
  ], {
    cwd: dir,
    env: { BASE: base, TOKEN_URL: `${base}/token`, CLIENT_ID: "client-1", CLIENT_SECRET: "s3cret" },
  });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const json = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
  return { run, json, html: `${dir}/report.html` };
}

async function scene() {
  const srv = server();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-html-details-" });
  // Names and paths that sort the other way: setup last by path, teardown first.
  await Deno.writeTextFile(`${dir}/auth.yaml`, AUTH);
  await Deno.writeTextFile(`${dir}/zz_setup.yaml`, flow("set up", "", "/open"));
  await Deno.writeTextFile(`${dir}/aa_teardown.yaml`, flow("tear down", "", "/open"));
  await Deno.writeTextFile(`${dir}/b_passes.yaml`, flow("passes"));
  await Deno.writeTextFile(
    `${dir}/c_capture.yaml`,
    flow("capture fails", "    capture:\n      name: $.json.name\n"),
  );
  // A flow's own oauth2: (another scope, so a token of its own): its entry is in the flow file.
  await Deno.writeTextFile(
    `${dir}/d_own_auth.yaml`,
    AUTH.replace("# The run's auth: every flow's requests carry its token.\n", "name: own auth\n")
      .replace(
        "client_secret: ${ENV.CLIENT_SECRET}\n",
        "client_secret: ${ENV.CLIENT_SECRET}\n    scope: own\n",
      ) +
      flow("x").replace("name: x\n", ""),
  );
  return {
    dir,
    srv,
    async close() {
      await srv.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("the JSON report: the token entry at the auth file, setup and teardown roles, the threads", async () => {
  const s = await scene();
  try {
    const { json } = await runIn(s.dir, s.srv.base, ["--workers", "2", "--jobs", "2"]);
    assert.equal(json.workers, 2);
    const roles = json.flows.map((f: { name: string; role?: string }) => [f.name, f.role ?? null]);
    assert.deepEqual(roles[0], ["set up", "setup"]);
    assert.deepEqual(roles.at(-1), ["tear down", "teardown"]);
    assert.deepEqual(roles.slice(1, -1).map((r: string[]) => r[1]), [null, null, null]);
    const entries = (name: string) =>
      json.flows.filter((f: { name: string }) =>
        name === "" ? f.name !== "own auth" : f.name === name
      )
        .flatMap((f: { steps: { name: string }[] }) => f.steps)
        .filter((st: { name: string }) => st.name === "auth › oauth2 token");
    const token = entries("");
    assert.equal(token.length, 1, JSON.stringify(json.flows));
    // `oauth2:` is on line 3 of the auth file, column 3.
    assert.deepEqual([token[0].file, token[0].line, token[0].column], ["auth.yaml", 3, 3]);
    // A flow's own block: line 3 of the flow file, which needs no naming.
    const own = entries("own auth");
    assert.equal(own.length, 1, JSON.stringify(json.flows));
    assert.deepEqual([own[0].file, own[0].line, own[0].column], [undefined, 3, 3]);
    assert.equal(s.srv.tokens(), 2, "the run's token and the flow's own");
    const one = await runIn(s.dir, s.srv.base, []);
    assert.equal(one.json.workers, 1, "no --workers: the main thread alone");
  } finally {
    await s.close();
  }
});

Deno.test({
  name:
    `the HTML report of a real run shows the capture row, the token's place, the order, the threads${whyBrowserIgnored}`,
  ignore: ignoreBrowser,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const s = await scene();
    try {
      const { html, json } = await runIn(s.dir, s.srv.base, ["--workers", "2", "--jobs", "2"]);
      // Whichever flow's step needed the token first holds its entry.
      const holder = json.flows.find((f: { name: string; steps: { name: string }[] }) =>
        f.name !== "own auth" && f.steps.some((st) =>
          st.name === "auth › oauth2 token"
        )
      ).name;
      await withPage(async (page) => {
        const errors: string[] = [];
        page.on("pageerror", (e) => errors.push(String(e)));
        await page.goto(`file://${html}`);
        await page.waitForSelector("body[data-ready=true]");
        // Setup first, teardown last; the failed flow right after the setup.
        assert.deepEqual(await page.locator(".flow .name").allTextContents(), [
          "set up",
          "capture fails",
          "passes",
          "own auth",
          "tear down",
        ]);
        assert.match(await page.locator(".meta").innerText(), /Worker threads 2\b/);

        // The failed capture is a row of its step's table: what was wanted, what was found.
        const failed = page.locator(".flow", { hasText: "capture fails" });
        const step = failed.locator(".step", { hasText: "get item" });
        const rows = step.locator("table.assertions tbody tr");
        const texts = await rows.evaluateAll((trs) =>
          trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent))
        );
        const bad = texts.filter((cells) => cells[0]?.includes("failed"));
        assert.equal(bad.length, 1, JSON.stringify(texts));
        const [, path, operator, expected, actual, message, line] = bad[0];
        assert.equal(path, "name");
        assert.equal(operator, "capture");
        assert.equal(expected, "a value");
        assert.equal(actual, "(nothing matched)");
        assert.match(message!, /\$\.json\.name/, "the message names what was looked for");
        assert.equal(line, "7:7");

        // The token entry, in whichever flow fetched it, points at the auth file.
        const owner = page.locator(".flow", { hasText: holder });
        const button = owner.locator("h3 > button");
        if (await button.getAttribute("aria-expanded") !== "true") await button.click();
        const entry = owner.locator(".step", { hasText: "auth › oauth2 token" });
        await entry.locator(".step-row button").click();
        assert.equal(await entry.locator(".where.mono").innerText(), "auth.yaml:3:3");
        assert.deepEqual(errors, []);
      });
    } finally {
      await s.close();
    }
  },
});

Deno.test("a setup flow not run for an earlier one's failure keeps its role; a run without workers ran on one thread", async () => {
  const srv = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => new Response("x", { status: new URL(req.url).pathname === "/bad" ? 500 : 200 }),
  );
  try {
    const base = `http://127.0.0.1:${srv.addr.port}`;
    const load = (file: string, name: string, path: string) =>
      loadFlow(
        `name: ${name}\nsteps:\n  - name: s\n    request: {url: "${base}${path}"}\n    assert: {status: 200}\n`,
        file,
      ).flow!;
    const result = await runFlows([load("m.yaml", "middle", "/ok")], {
      runId: "r",
      setup: [load("s1.yaml", "first setup", "/bad"), load("s2.yaml", "second setup", "/ok")],
      teardown: [load("t.yaml", "teardown", "/ok")],
    });
    assert.deepEqual(result.flows.map((f) => [f.name, f.status, f.role ?? null]), [
      ["first setup", "failed", "setup"],
      ["second setup", "skipped", "setup"],
      ["middle", "skipped", null],
      ["teardown", "passed", "teardown"],
    ]);
    assert.equal(result.workers, 1);
    // The page lists them so, the failed setup flow first although failed flows lead.
    const data = JSON.parse(
      /id="data">(.*?)<\/script>/s.exec(toHtml(result))![1].replaceAll("\\/", "/"),
    );
    assert.deepEqual(data.flows.map((f: unknown[]) => [f[1], f[10] ?? null]), [
      ["first setup", "setup"],
      ["second setup", "setup"],
      ["middle", null],
      ["teardown", "teardown"],
    ]);
  } finally {
    await srv.shutdown();
  }
});
