import assert from "node:assert/strict";
import { startDemoApi } from "../../examples/demo_api.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import type { Flow } from "../../lib/model/flow.ts";
import { htmlReporter, toHtml } from "../../lib/report/html.ts";
import type { AssertionResult, FlowResult, RunResult, StepResult } from "../../lib/model/result.ts";
import { runFlows } from "../../lib/run/flows.ts";
import type { Page } from "playwright-core";
import { ignoreBrowser, whyBrowserIgnored, withPage } from "../support/browser.ts";
import { run } from "../support/results.ts";
import "../support/engines.ts";

const OUT_DIR = new URL("./out/", import.meta.url);

/** The JSON data a report carries, parsed back. */
function dataOf(html: string): { traceLink: string | null; flows: unknown[][] } {
  const match = /<script type="application\/json" id="data">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(match, "the data script is there");
  return JSON.parse(match[1]);
}

/** The page script. */
function scriptOf(html: string): string {
  const match = /<script>([\s\S]*?)<\/script>/.exec(html);
  assert.ok(match, "the page script is there");
  return match[1];
}

/** The page with its data script left out: everything but user data. */
function withoutData(html: string): string {
  return html.replace(/<script type="application\/json" id="data">[\s\S]*?<\/script>/, "");
}

function check(over: Partial<AssertionResult> = {}): AssertionResult {
  return {
    phase: "assert",
    path: "$.json.state",
    operator: "equals",
    expected: "ready",
    actual: "ready",
    found: true,
    passed: true,
    message: '$.json.state equals "ready"',
    line: 12,
    column: 11,
    ...over,
  };
}

function step(over: Partial<StepResult> = {}): StepResult {
  return {
    name: "get_item",
    status: "passed",
    duration_ms: 12.4,
    start_ms: 0,
    attempts: 1,
    line: 8,
    column: 5,
    request: { method: "GET", url: "https://api.example.test/items/itm_0123456789ab" },
    response: { status: 200, content_type: "application/json" },
    assertions: [
      check(),
      check({ path: "status", operator: "equals", expected: 200, actual: 200 }),
    ],
    captures: [],
    ...over,
  };
}

/**
 * A big run: `count` flows of five steps each, one in fifty failing with
 * headers and bodies recorded, as a nightly run of a large suite would look.
 */
function bigRun(count: number): RunResult {
  const flows: FlowResult[] = [];
  for (let i = 0; i < count; i++) {
    const failing = i % 50 === 7;
    const steps: StepResult[] = [];
    let at = 0;
    for (let j = 0; j < 5; j++) {
      const bad = failing && j === 3;
      const skipped = failing && j === 4;
      const s = step({
        name: ["login", "create_item", "get_item", "wait_for_job", "delete_item"][j],
        start_ms: at,
        duration_ms: skipped ? 0 : 8 + (i * 7 + j * 13) % 40,
        status: bad ? "failed" : skipped ? "skipped" : "passed",
        request: skipped ? null : {
          method: ["POST", "POST", "GET", "GET", "DELETE"][j],
          url: `https://api.example.test/suite-${i % 40}/items/itm_${
            (i * 5 + j).toString(16).padStart(12, "0")
          }`,
          ...(bad
            ? {
              headers: { authorization: "Bearer ***", "content-type": "application/json" },
              body: JSON.stringify({ name: `item-${i}`, price: 12.5 }),
            }
            : {}),
        },
        response: skipped ? null : {
          status: bad ? 500 : 200,
          content_type: "application/json",
          ...(bad
            ? {
              headers: { "content-type": "application/json", "x-request-id": `req-${i}` },
              body: JSON.stringify({ error: "internal", detail: "x".repeat(800) }),
              body_excerpt: '{"error":"internal"}',
            }
            : {}),
        },
        ...(j === 3 && !skipped ? { attempts: 3, attempt_starts_ms: [0, 5, 10] } : {}),
        ...(bad
          ? {
            message: "status: expected 200, got 500",
            failure_kind: "assertion" as const,
            assertions: [check({
              path: "status",
              expected: 200,
              actual: 500,
              passed: false,
              message: "status: expected 200, got 500",
            })],
          }
          : skipped
          ? { message: "Skipped: wait_for_job failed.", failure_kind: "skipped" as const }
          : {}),
      });
      at += s.duration_ms;
      steps.push(s);
    }
    flows.push({
      file: `flows/suite-${String(i % 40).padStart(2, "0")}/flow-${
        String(i).padStart(4, "0")
      }.yaml`,
      name: `flow number ${i}`,
      status: failing ? "failed" : "passed",
      started_at: "2025-03-01T10:15:00.000Z",
      duration_ms: at + 1,
      steps,
    });
  }
  return run(flows, 123456);
}

const NASTY =
  `</script><script>window.__xss = 1</script><img src=x onerror="window.__xss=2"> "q" 'a' & \u2028 <!--<script>`;

Deno.test("toHtml: one self-contained file, no external resources outside the data", () => {
  const html = toHtml(bigRun(60), { traceLink: "http://jaeger:16686/trace/{trace_id}" });
  assert.ok(html.startsWith("<!doctype html>"));
  assert.doesNotMatch(html, /<script[^>]+src/i);
  assert.doesNotMatch(html, /<link/i);
  assert.doesNotMatch(html, /@import|url\(/i, "no CSS resources");
  const page = withoutData(html);
  // URLs of the run (requests, the trace template) only appear inside the data.
  assert.doesNotMatch(page, /https?:/i);
  assert.doesNotMatch(page, /\s(src|href)=/i);
  assert.equal(html.match(/<script/g)?.length, 2, "the data script and the page script");
  assert.equal(dataOf(html).traceLink, "http://jaeger:16686/trace/{trace_id}");
});

Deno.test("toHtml: the page script parses and cannot close its element", () => {
  const script = scriptOf(toHtml(run([])));
  assert.doesNotMatch(script, /<\//);
  // Compiles without running: a syntax error throws here.
  new Function(script);
});

Deno.test("toHtml: names, URLs and bodies cannot inject markup", () => {
  const flow: FlowResult = {
    file: `flows/<b>"x".yaml`,
    name: NASTY,
    status: "failed",
    started_at: "2025-03-01T10:15:00.000Z",
    duration_ms: 20,
    steps: [step({
      name: NASTY,
      status: "failed",
      request: {
        method: "POST",
        url: `https://api.test/?q=</script><script>alert(1)</script>`,
        headers: { "x-note": NASTY },
        body: NASTY,
      },
      response: { status: 500, body: NASTY, headers: { "x-y": "</script>" } },
      message: NASTY,
      failure_kind: "assertion",
      assertions: [check({ expected: NASTY, actual: { html: NASTY }, passed: false })],
    })],
  };
  const result = { ...run([flow]), run_id: `<run id="1">` };
  const html = toHtml(result, { title: `<img src=x> "t"` });
  // Only the two script elements of the page exist, and each closes once.
  assert.equal(html.match(/<script/gi)?.length, 2);
  assert.equal(html.match(/<\/script/gi)?.length, 2);
  assert.doesNotMatch(html, /<!--/);
  assert.doesNotMatch(html, /\u2028/);
  assert.doesNotMatch(withoutData(html), /<img/i);
  assert.ok(html.includes("&lt;img src=x&gt; &quot;t&quot;"), "the title is escaped");
  assert.ok(html.includes("&lt;run id=&quot;1&quot;&gt;"), "the run id is escaped");
  // The values come back unchanged from the data.
  const data = dataOf(html);
  const [file, name, , , , , steps] = data.flows[0] as [
    string,
    string,
    unknown,
    unknown,
    unknown,
    unknown,
    Record<string, unknown>[],
  ];
  assert.equal(file, flow.file);
  assert.equal(name, NASTY);
  assert.equal(steps[0].m, NASTY);
  assert.deepEqual(steps[0].q, flow.steps[0].request);
  assert.deepEqual(steps[0].r, flow.steps[0].response);
  assert.deepEqual((steps[0].x as unknown[][])[0].slice(3, 5), [NASTY, { html: NASTY }]);
});

Deno.test("toHtml: the summary shows counts, shard and interruption", () => {
  const result = bigRun(100);
  const html = toHtml({ ...result, interrupted: "SIGINT" }, { shard: { index: 2, total: 4 } });
  const { flows, steps } = result.totals;
  assert.equal(flows.failed, 2);
  assert.ok(html.includes(`aria-label="Flows: 98 passed, 2 failed of 100"`), "bar text");
  assert.ok(
    html.includes(
      `aria-label="Steps: ${steps.passed} passed, ${steps.failed} failed, ${steps.skipped} skipped of ${steps.total}"`,
    ),
  );
  assert.ok(html.includes("Shard <b>2/4</b>"));
  assert.ok(html.includes("<strong>Interrupted</strong> by SIGINT"));
  assert.ok(html.includes("Took <b>2 min 3 s</b>"));
  assert.ok(html.includes(`data-filter="failed" aria-pressed="false">Failed (2)</button>`));
  assert.ok(!toHtml(result).includes("Interrupted"));
  assert.ok(!toHtml(result).includes("Shard"));
});

Deno.test("toHtml: 2,000 flows of 5 steps stay under 5 MB", () => {
  const started = performance.now();
  const html = toHtml(bigRun(2000));
  const ms = performance.now() - started;
  const bytes = new TextEncoder().encode(html).length;
  console.log(`2,000 flows × 5 steps: ${(bytes / 1e6).toFixed(2)} MB in ${ms.toFixed(0)} ms`);
  assert.ok(bytes < 5e6, `${bytes} bytes`);
});

Deno.test("htmlReporter writes the page once, at the end of the run", async () => {
  const written: string[] = [];
  const reporter = htmlReporter((text) => {
    written.push(text);
    return Promise.resolve();
  }, { title: "Nightly" });
  const run = bigRun(3);
  await reporter.onRunStart?.({ ...run, files: [] });
  for (const flow of run.flows) await reporter.onFlowEnd?.(flow);
  assert.equal(written.length, 0, "nothing is written before the run ends");
  await reporter.onRunEnd?.(run);
  assert.equal(written.length, 1);
  assert.ok(written[0].includes("<h1>Nightly"));
  assert.equal(dataOf(written[0]).flows.length, 3);
});

// ---------------------------------------------------------------------------
// In a browser.

const FAILING_POLL = `
name: job result is wrong
steps:
  - name: login
    request:
      method: POST
      url: \${ENV.BASE_URL}/login
      body: { username: demo, password: demo-password }
    capture: { token: $.json.token }
  - name: start_job
    request:
      method: POST
      url: \${ENV.BASE_URL}/jobs
      headers: { authorization: "Bearer \${steps.login.capture.token}" }
      body: { kind: report }
    capture: { id: $.json.id }
    assert: { status: 202 }
  - name: wait_for_job
    request:
      url: \${ENV.BASE_URL}/jobs/\${steps.start_job.capture.id}
      headers: { authorization: "Bearer \${steps.login.capture.token}" }
    loop:
      max_attempts: 10
      sleep_ms: 30
      until:
        json:
          - { path: $.json.state, equals: ready }
    assert:
      status: 200
      json:
        - { path: $.json.state, equals: ready }
        - { path: $.json.result.rows, equals: 43 }
  - name: delete_job
    request:
      method: DELETE
      url: \${ENV.BASE_URL}/jobs/\${steps.start_job.capture.id}
      headers: { authorization: "Bearer \${steps.login.capture.token}" }
`;

const UNREACHABLE = `
name: unreachable service
steps:
  - name: ping
    request: { url: "http://127.0.0.1:9/health" }
    assert: { status: 200 }
`;

const ECHO = `
name: ${JSON.stringify(NASTY.replace("\u2028", ""))}
steps:
  - name: echo_markup
    request:
      method: POST
      url: \${ENV.BASE_URL}/echo/markup
      body: { html: "</script><img src=x onerror=window.__xss=3>" }
    assert:
      status: 201
`;

/** Runs real flows against the demo API: passing, failing with a poll, erroring, hostile names. */
async function realRun(): Promise<RunResult> {
  const api = await startDemoApi();
  try {
    const env = (name: string) => name === "BASE_URL" ? api.url : undefined;
    const flows: Flow[] = [];
    const sources: [string, string][] = [
      ["flows/job_result.yaml", FAILING_POLL],
      ["flows/unreachable.yaml", UNREACHABLE],
      ["flows/echo.yaml", ECHO],
    ];
    for (const name of ["job_polling.yaml", "login_and_items.yaml", "spelling_b.yaml"]) {
      const url = new URL(`../../examples/flows/${name}`, import.meta.url);
      sources.push([`examples/flows/${name}`, await Deno.readTextFile(url)]);
    }
    for (const [file, text] of sources) {
      const loaded = loadFlow(text, file, { env });
      assert.ok(loaded.flow, `${file}: ${JSON.stringify(loaded.problems)}`);
      flows.push(loaded.flow);
    }
    flows.sort((a, b) => a.file < b.file ? -1 : 1);
    return await runFlows(flows, { env, runId: "20250301-101500-a1b2c3", trace: true, jobs: 2 });
  } finally {
    await api.close();
  }
}

/** Waits until exactly these flows are shown, in this order. */
async function waitForShown(page: Page, names: string[]): Promise<void> {
  await page.waitForFunction(`JSON.stringify(
    [...document.querySelectorAll(".flow:not([hidden]) .name")].map((e) => e.textContent)
  ) === ${JSON.stringify(JSON.stringify(names))}`);
}

/** Waits until the page shows this count of flows. */
async function waitForCount(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    `document.getElementById("count").textContent === ${JSON.stringify(text)}`,
  );
}

async function writeTemp(html: string): Promise<string> {
  const file = await Deno.makeTempFile({ prefix: "flowrun-report-", suffix: ".html" });
  await Deno.writeTextFile(file, html);
  return file;
}

Deno.test({
  name: `html report in Chromium: counts, details, filter, search, keyboard${whyBrowserIgnored}`,
  ignore: ignoreBrowser,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const result = await realRun();
    // A check written in a check file is placed there, not in the flow file.
    const waitStep = result.flows.find((f) => f.file === "flows/job_result.yaml")?.steps
      .find((s) => s.name === "wait_for_job");
    const inFile = waitStep?.assertions.find((a) => !a.passed);
    assert.ok(inFile, "the failing poll has a failed check");
    inFile.file = "checks/job.yaml";
    const { flows, steps } = result.totals;
    assert.equal(flows.total, 6);
    assert.equal(flows.failed, 2, "the job flow and the echo flow fail");
    assert.equal(flows.error, 1, "the unreachable flow errors");
    const html = toHtml(result, {
      traceLink: "http://localhost:16686/trace/{trace_id}",
      reproduce: (file) => `flowrun run ${file}`,
      provenance: {
        provider: "github",
        commit: "0123456789abcdef0123456789abcdef01234567",
        job_url: "https://github.com/acme/api/actions/runs/42",
        platform: "linux x86_64",
      },
    });
    const file = await writeTemp(html);
    try {
      await withPage(async (page) => {
        const external: string[] = [];
        page.on("request", (r) => {
          if (!r.url().startsWith("file:")) external.push(r.url());
        });
        const errors: string[] = [];
        page.on("pageerror", (e) => errors.push(String(e)));
        await page.goto(`file://${file}`);
        await page.waitForSelector("body[data-ready=true]");

        // The summary.
        const total = (kind: string) =>
          page.locator(`.summary-row[data-kind=${kind}] .total`).textContent();
        assert.equal(await total("flows"), "6");
        assert.equal(await total("steps"), String(steps.total));
        const legend = await page.locator(".summary-row[data-kind=flows] .legend").innerText();
        assert.match(legend, new RegExp(`${flows.passed}\\s*passed`));
        assert.match(legend, /2\s*failed/);
        assert.match(legend, /1\s*error/);
        assert.equal(await page.locator("#count").textContent(), "Showing 6 of 6 flows");

        // Failed and errored flows first, then by path.
        const names = await page.locator(".flow .name").allTextContents();
        const hostile = NASTY.replace("\u2028", "");
        assert.deepEqual(names.slice(0, 3), [
          hostile,
          "job result is wrong",
          "unreachable service",
        ]);

        // Failed flows open at once; a click closes one and opens it again.
        const failed = page.locator(".flow", { hasText: "job result is wrong" });
        const button = failed.locator("h3 > button");
        assert.equal(await button.getAttribute("aria-expanded"), "true");
        await button.click();
        assert.equal(await button.getAttribute("aria-expanded"), "false");
        await button.click();
        assert.equal(await button.getAttribute("aria-expanded"), "true");
        assert.equal(
          await failed.locator(".reproduce").innerText(),
          "Reproduce: flowrun run flows/job_result.yaml",
        );
        const passedFlow = page.locator(".flow.st-passed").first().locator("h3 > button");
        assert.equal(await passedFlow.getAttribute("aria-expanded"), "false");
        // Where the run happened, from the CI's variables.
        const meta = await page.locator(".meta").innerText();
        assert.match(meta, /CI github/);
        assert.match(meta, /Commit 0123456789ab/);
        assert.match(meta, /Platform linux x86_64/);
        assert.equal(
          await page.locator(".meta a").getAttribute("href"),
          "https://github.com/acme/api/actions/runs/42",
        );
        const wait = failed.locator(".step", { hasText: "wait_for_job" });
        const bad = wait.locator("tr.bad");
        assert.equal(await bad.count(), 1);
        // Every poll attempt's status is kept.
        assert.match(await wait.locator(".attempts").innerText(), /^Attempts: 200(, 200)+$/);
        const cells = await bad.locator("td").allTextContents();
        assert.match(cells[6], /^checks\/job\.yaml:\d+:\d+$/);
        assert.deepEqual(cells.slice(0, 5), [
          "✗ failed",
          "$.json.result.rows",
          "equals",
          "43",
          "42",
        ]);
        // The until condition, the status and the state held.
        assert.equal(await wait.locator("tr.good").count(), 3);
        assert.match(
          await wait.locator(".where").first().textContent() ?? "",
          /^flows\/job_result\.yaml:\d+:\d+$/,
        );
        // The request and response of the failed step.
        const request = await wait.locator(".request").innerText();
        assert.match(request, /GET http:\/\/127\.0\.0\.1:\d+\/jobs\/job_[0-9a-f]+/);
        assert.match(request, /authorization/);
        // The curl line of report.json, shown to copy (the token masked in it as everywhere).
        assert.match(
          request,
          /curl: curl 'http:\/\/127\.0\.0\.1:\d+\/jobs\/job_[0-9a-f]+' -H 'authorization: \*\*\*'/,
        );
        const response = await wait.locator(".response").innerText();
        assert.match(response, /HTTP 200 · application\/json/);
        assert.match(response, /"state": "ready"/, "JSON bodies are pretty-printed");
        // Polling: three attempts drawn as ticks inside the bar, and a trace link.
        assert.equal(await wait.locator(".tick").count(), 2);
        assert.match(await wait.locator(".bar").getAttribute("title") ?? "", /3 attempts/);
        const link = wait.locator(".detail a").first();
        assert.match(
          await link.getAttribute("href") ?? "",
          /^http:\/\/localhost:16686\/trace\/[0-9a-f]{32}$/,
        );
        // The skipped step after it has no bar, only a dashed outline, and says so.
        assert.match(await failed.locator(".step").last().innerText(), /delete_job/);

        await Deno.mkdir(OUT_DIR, { recursive: true });
        await page.screenshot({ path: new URL("report.png", OUT_DIR).pathname, fullPage: true });
        await page.emulateMedia({ colorScheme: "dark" });
        await page.screenshot({
          path: new URL("report-dark.png", OUT_DIR).pathname,
          fullPage: true,
        });
        await page.emulateMedia({ colorScheme: "light" });

        // Status filter: only failed and errored flows.
        await page.getByRole("button", { name: /^Failed/ }).click();
        assert.equal(await page.locator("#count").textContent(), "Showing 3 of 6 flows");
        assert.deepEqual(
          await page.locator(".flow:not([hidden]) .name").allTextContents(),
          [hostile, "job result is wrong", "unreachable service"],
        );
        await page.getByRole("button", { name: /^Passed/ }).click();
        assert.equal(await page.locator(".flow:not([hidden]).st-failed").count(), 0);
        await page.getByRole("button", { name: /^All/ }).click();

        // Search over step names (debounced) and file names.
        await page.getByLabel("Search").fill("create_item");
        await waitForShown(page, ["login and items"]);
        assert.equal(await page.locator("#count").textContent(), "Showing 1 of 6 flows");
        await page.getByLabel("Search").fill("job_polling.yaml");
        await waitForShown(page, ["job polling"]);
        // Search and status filter combine.
        await page.getByLabel("Search").fill("job");
        await waitForShown(page, ["job result is wrong", "job polling"]);
        await page.getByRole("button", { name: /^Failed/ }).click();
        await waitForShown(page, ["job result is wrong"]);
        await page.getByRole("button", { name: /^All/ }).click();
        await page.getByLabel("Search").fill("no such thing");
        await page.waitForSelector("#empty:not([hidden])");
        await page.getByLabel("Search").fill("");
        await waitForCount(page, "Showing 6 of 6 flows");

        // Keyboard: the errored flow is open; Enter collapses it, Enter again expands it.
        const unreachable = page.locator(".flow", { hasText: "unreachable service" });
        const key = unreachable.locator("h3 > button");
        const text = await unreachable.locator(".flow-body").innerText();
        assert.match(text, /GET http:\/\/127\.0\.0\.1:9\/health/);
        assert.match(text, /No response arrived/);
        await key.focus();
        await page.keyboard.press("Enter");
        assert.equal(await key.getAttribute("aria-expanded"), "false");
        await page.keyboard.press("Enter");
        assert.equal(await key.getAttribute("aria-expanded"), "true");

        // The hostile flow: its name, request and response are text, and nothing ran.
        const echo = page.locator(".flow", { hasText: "flows/echo.yaml" });
        assert.match(
          await echo.locator(".response pre").innerText(),
          /"html": "<\/script><img src=x onerror=window.__xss=3>"/,
        );
        assert.equal(
          await page.evaluate(() => (globalThis as { __xss?: number }).__xss),
          undefined,
        );
        assert.equal(await page.locator("main img").count(), 0);

        assert.deepEqual(errors, []);
        assert.deepEqual(external, [], "the report makes no requests");
      });
    } finally {
      await Deno.remove(file);
    }
  },
});

Deno.test({
  name: `html report in Chromium: 2,000 flows open and filter quickly${whyBrowserIgnored}`,
  ignore: ignoreBrowser,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const file = await writeTemp(toHtml(bigRun(2000)));
    try {
      await withPage(async (page) => {
        const started = performance.now();
        await page.goto(`file://${file}`);
        await page.waitForSelector("body[data-ready=true]");
        const openMs = performance.now() - started;
        // Runs in the page (a string: the test's type check has no DOM types).
        const timings: Record<string, number> & { failedCount: string; termCount: string } =
          await page.evaluate(`(() => {
            const doc = document;
            const time = (action) => {
              const t0 = performance.now();
              action();
              // Force layout, so the time includes what the browser must redo.
              void doc.body.offsetHeight;
              return performance.now() - t0;
            };
            const button = (name) => doc.querySelector(".filters button[data-filter=" + name + "]");
            const search = doc.getElementById("search");
            const enter = () =>
              search.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
            const failed = time(() => button("failed").click());
            const failedCount = doc.getElementById("count").textContent;
            const all = time(() => button("all").click());
            const term = time(() => { search.value = "flow number 1999"; enter(); });
            const termCount = doc.getElementById("count").textContent;
            const steps = time(() => { search.value = "wait_for_job"; enter(); });
            const expand = time(() => doc.querySelector(".flow h3 > button").click());
            return { failed, failedCount, all, term, termCount, steps, expand };
          })()`);
        console.log(
          `2,000 flows in Chromium: opened in ${openMs.toFixed(0)} ms; filter failed ${
            timings.failed.toFixed(1)
          } ms, all ${timings.all.toFixed(1)} ms, search ${timings.term.toFixed(1)} ms / ${
            timings.steps.toFixed(1)
          } ms, expand ${timings.expand.toFixed(1)} ms`,
        );
        assert.equal(timings.failedCount, "Showing 40 of 2000 flows");
        assert.equal(timings.termCount, "Showing 1 of 2000 flows");
        assert.ok(openMs < 10_000, `opening took ${openMs} ms`);
        for (const key of ["failed", "all", "term", "steps", "expand"] as const) {
          assert.ok(timings[key] < 2000, `${key} took ${timings[key]} ms`);
        }
      });
    } finally {
      await Deno.remove(file);
    }
  },
});
