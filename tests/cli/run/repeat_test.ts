/**
 * `flowrun run --repeat N --concurrency C` as a user runs it: the CLI as a
 * subprocess against a server this test starts on 127.0.0.1, which counts
 * what arrives; the exit code, the console and the report files asserted.
 */
import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import { runBounded, runCli } from "../../support/cli.ts";
import { ignoreXsd, validateJUnitFile } from "../../support/xmllint.ts";
import type { JsonReport } from "../../../lib/report/json.ts";
import { type Answer, repeatServer } from "./repeat_server.ts";
import { withFiles } from "../../support/with_files.ts";

const schema = JSON.parse(
  await Deno.readTextFile(new URL("../../../schema/report.schema.json", import.meta.url)),
);
const checkReport = new Ajv2020({ allErrors: true, strict: false, logger: false }).compile(schema);

/** A flow of one GET step per path, each asserting status 200 (and `ok: true` when `json`). */
function flow(name: string, port: number, paths: string[], json = false): string {
  const steps = paths.map((path) =>
    `  - name: ${path.slice(1)}\n    request: { url: "http://127.0.0.1:${port}${path}" }\n` +
    `    assert:\n      status: 200\n` +
    (json ? `      json: [{ path: $.json.ok, equals: true }]\n` : "")
  );
  return `name: ${name}\nsteps:\n${steps.join("")}`;
}

/** The JSON report, checked against the schema. */
async function report(path: string): Promise<JsonReport> {
  const value = JSON.parse(await Deno.readTextFile(path));
  assert.ok(checkReport(value), JSON.stringify(checkReport.errors));
  return value as JsonReport;
}

Deno.test("--repeat N runs each flow N times, at most --concurrency C at once, and folds the reports", async () => {
  const C = 3;
  // The first C requests are answered once the C-th has arrived (a handshake, bounded by a
  // timer that only a run that never reaches C at once meets): the run reaches C, provably.
  const gate = Promise.withResolvers<void>();
  const bound = setTimeout(gate.resolve, 20_000);
  const server = repeatServer((path, k) => {
    if (path === "/a" && k === C) gate.resolve();
    return path === "/a" && k <= C ? { status: 200, wait: gate.promise } : { status: 200 };
  });
  try {
    await withFiles({
      "one.yaml": flow("one", server.port, ["/a", "/b"]),
      "two.yaml": flow("two", server.port, ["/c"]),
    }, async (dir) => {
      const run = await runCli([
        "run",
        dir,
        "--repeat",
        "30",
        "--concurrency",
        String(C),
        "--report-json",
        `${dir}/out/report.json`,
        "--report-junit",
        `${dir}/out/junit.xml`,
      ]);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.deepEqual(Object.fromEntries(server.counts), { "/a": 30, "/b": 30, "/c": 30 });
      assert.equal(server.maxInFlight(), C, "exactly C flow runs at once, never more");
      const json = await report(`${dir}/out/report.json`);
      assert.deepEqual(json.flows.map((f) => f.name), [
        "one [1/30]",
        "two [1/30]",
      ]);
      assert.equal(json.totals.flows.total, 2);
      const latency = json.latency!;
      assert.equal(latency.repeat, 30);
      assert.equal(latency.concurrency, C);
      assert.deepEqual(latency.iterations, {
        total: 60,
        passed: 60,
        failed: 0,
        not_run: 0,
        listed: 2,
      });
      assert.equal(latency.overall.requests, 90);
      assert.deepEqual(
        latency.steps.map((s) => `${s.flow} › ${s.step}: ${s.requests}`).sort(),
        ["one › a: 30", "one › b: 30", "two › c: 30"],
      );
      assert.match(
        run.stdout,
        /Latency of 60 iterations \(--repeat 30, --concurrency 3\): 60 passed, 0 failed; 90 requests/,
      );
      assert.match(run.stdout, /one › a +30 /);
      const junit = await Deno.readTextFile(`${dir}/out/junit.xml`);
      assert.equal(
        junit.match(/<testsuite /g)?.length,
        2,
        "one testsuite per flow, not per iteration",
      );
      if (!ignoreXsd) await validateJUnitFile(`${dir}/out/junit.xml`);
    });
  } finally {
    clearTimeout(bound);
    await server.close();
  }
});

Deno.test("errors are counted by kind, each kind where the server caused it; exit 1", async () => {
  // Request k of each path: /s answers 500 every 10th, /d drops the connection every 5th, /t never
  // answers every 10th (the run's --timeout, 3 s, ends it; a busy machine answers the others sooner), /j answers ok: false every 4th.
  const server = repeatServer((path, k): Answer => {
    if (path === "/s" && k % 10 === 0) return { status: 500 };
    if (path === "/d" && k % 5 === 0) return { drop: true };
    if (path === "/t" && k % 10 === 0) return { hang: true };
    if (path === "/j" && k % 4 === 0) return { status: 200, body: '{"ok":false}' };
    return { status: 200, body: '{"ok":true}' };
  });
  try {
    await withFiles({
      "s.yaml": flow("s", server.port, ["/s"]),
      "d.yaml": flow("d", server.port, ["/d"]),
      "t.yaml": flow("t", server.port, ["/t"]),
      "j.yaml": flow("j", server.port, ["/j"], true),
    }, async (dir) => {
      const run = await runCli([
        "run",
        dir,
        "--repeat",
        "20",
        "--concurrency",
        "4",
        "--timeout",
        "3s",
        "--report-json",
        `${dir}/report.json`,
      ]);
      assert.equal(run.code, 1, run.stdout + run.stderr);
      const json = await report(`${dir}/report.json`);
      const latency = json.latency!;
      const byStep = Object.fromEntries(latency.steps.map((s) => [s.step, s.errors]));
      assert.deepEqual(byStep, {
        s: { status: 2 },
        d: { network: 4 },
        t: { timeout: 2 },
        j: { assertion: 5 },
      });
      assert.deepEqual(latency.overall.errors, { status: 2, assertion: 5, network: 4, timeout: 2 });
      assert.equal(latency.overall.requests, server.total());
      assert.deepEqual(latency.iterations, {
        total: 80,
        passed: 67,
        failed: 13,
        not_run: 0,
        // Each flow's first iteration (all passed) and the 13 that failed.
        listed: 17,
      });
      assert.equal(json.flows.length, 17);
      assert.equal(json.totals.flows.failed + json.totals.flows.error, 13);
      assert.match(run.stdout, /s › s +20 .* status 2\n/);
      assert.match(run.stdout, /all requests +80 .* status 2, assertion 5, network 4, timeout 2\n/);
    });
  } finally {
    await server.close();
  }
});

Deno.test("percentiles are ordered and bounded below by the server's known delays", async () => {
  // Request k waits (k mod 20) * 5 ms: sorted, the 40 delays are 0, 0, 5, 5, …, 95, 95, so the
  // nearest-rank p50 (the 20th) is 45 ms, p95 (the 38th) 90 ms, p99 and max (the 40th) 95 ms.
  const server = repeatServer((_, k) => ({ status: 200, delayMs: (k % 20) * 5 }));
  try {
    await withFiles({ "p.yaml": flow("p", server.port, ["/p"]) }, async (dir) => {
      const run = await runCli([
        "run",
        `${dir}/p.yaml`,
        "--repeat",
        "40",
        "--concurrency",
        "2",
        "--report-json",
        `${dir}/report.json`,
      ]);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const { overall, steps } = (await report(`${dir}/report.json`)).latency!;
      assert.equal(overall.requests, 40);
      assert.ok(overall.p50_ms <= overall.p95_ms, JSON.stringify(overall));
      assert.ok(overall.p95_ms <= overall.p99_ms, JSON.stringify(overall));
      assert.ok(overall.p99_ms <= overall.max_ms, JSON.stringify(overall));
      // Sorted, every duration is at least the delay of the same rank: so is each percentile.
      // (Less 1 ms: a timer may fire a fraction of a millisecond early.)
      assert.ok(overall.p50_ms >= 44, JSON.stringify(overall));
      assert.ok(overall.p95_ms >= 89, JSON.stringify(overall));
      assert.ok(overall.p99_ms >= 94 && overall.max_ms >= 94, JSON.stringify(overall));
      // One step: its line is the overall one.
      assert.deepEqual({ ...steps[0], file: undefined, flow: undefined, step: undefined }, {
        ...overall,
        file: undefined,
        flow: undefined,
        step: undefined,
      });
    });
  } finally {
    await server.close();
  }
});

Deno.test("a run failing every iteration lists the first 20 failures only: small reports, every count right", async () => {
  const server = repeatServer(() => ({ status: 503 }));
  try {
    await withFiles({ "down.yaml": flow("down", server.port, ["/x"]) }, async (dir) => {
      const run = await runCli([
        "run",
        `${dir}/down.yaml`,
        "--repeat",
        "1000",
        "--concurrency",
        "5",
        "--console",
        "compact",
        "--report-json",
        `${dir}/report.json`,
        "--report-junit",
        `${dir}/junit.xml`,
      ]);
      assert.equal(run.code, 1, run.stderr);
      assert.equal(server.total(), 1000);
      const json = await report(`${dir}/report.json`);
      assert.deepEqual(json.latency!.iterations, {
        total: 1000,
        passed: 0,
        failed: 1000,
        not_run: 0,
        listed: 21,
      });
      assert.deepEqual(json.latency!.overall.errors, { status: 1000 });
      assert.equal(json.flows.length, 21);
      assert.equal(json.flows[0].name, "down [1/1000]");
      assert.equal(json.totals.flows.total, 21);
      const junit = await Deno.readTextFile(`${dir}/junit.xml`);
      assert.equal(junit.match(/<testsuite /g)?.length, 21);
      assert.match(junit, /<testsuites name="flowrun" tests="21" failures="21"/);
      if (!ignoreXsd) await validateJUnitFile(`${dir}/junit.xml`);
      // The console lists the same 21 and counts all 1000.
      assert.equal(run.stdout.match(/✘ .*down \[\d+\/1000\]/g)?.length, 21 + 21, run.stdout);
      // Its progress, a line after every tenth of the iterations, counted, not timed.
      assert.deepEqual(
        run.stdout.match(/^… .*$/gm),
        Array.from(
          { length: 10 },
          (_, i) => `… ${(i + 1) * 100}/1000 iterations run: 0 passed, ${(i + 1) * 100} failed`,
        ),
      );
      assert.match(
        run.stdout,
        /Latency of 1000 iterations .*: 0 passed, 1000 failed; 1000 requests/,
      );
    });
  } finally {
    await server.close();
  }
});

Deno.test("--repeat 1 is a plain run, and 0 of either option is a usage error (exit 2)", async () => {
  const server = repeatServer(() => ({ status: 200 }));
  try {
    await withFiles({ "one.yaml": flow("one", server.port, ["/x"]) }, async (dir) => {
      const once = await runCli([
        "run",
        `${dir}/one.yaml`,
        "--repeat",
        "1",
        "--report-json",
        `${dir}/report.json`,
      ]);
      assert.equal(once.code, 0, once.stderr);
      const json = await report(`${dir}/report.json`);
      assert.equal(json.latency, undefined);
      assert.equal(json.flows[0].name, "one");
      assert.doesNotMatch(once.stdout, /Latency/);
      const refusals: [string[], string][] = [
        [
          ["--repeat", "0"],
          'error[bad-repeat]: Expected --repeat to be a positive number of runs, got "0".',
        ],
        [
          ["--concurrency", "0"],
          'error[bad-concurrency]: Expected --concurrency to be a positive number of flow runs at once, got "0".',
        ],
      ];
      for (const [args, message] of refusals) {
        const refused = await runCli(["run", `${dir}/one.yaml`, ...args]);
        assert.equal(refused.code, 2, refused.stderr);
        assert.ok(refused.stderr.includes(message), refused.stderr);
      }
      assert.equal(server.total(), 1, "nothing sent by a refused run");
    });
  } finally {
    await server.close();
  }
});

Deno.test("SIGINT mid-repeat ends the run with 130 and valid reports; the iterations not started count as not run", async () => {
  const server = repeatServer(() => ({ status: 200, delayMs: 2 }));
  try {
    await withFiles({ "long.yaml": flow("long", server.port, ["/x"]) }, async (dir) => {
      const run = await runBounded([
        "run",
        `${dir}/long.yaml`,
        "--repeat",
        "100000",
        "--concurrency",
        "2",
        "--report-json",
        `${dir}/report.json`,
        "--report-junit",
        `${dir}/junit.xml`,
      ], { interruptOn: server.reached(50), ms: 60_000 });
      assert.equal(run.killed, false);
      assert.equal(run.code, 130, run.stderr);
      const json = await report(`${dir}/report.json`);
      assert.equal(json.interrupted, "SIGINT");
      const { iterations, overall } = json.latency!;
      assert.equal(iterations.total, 100_000, "every iteration ended or counted as not run");
      // 50 requests arrived before the signal: all but the 2 then in flight (interrupted) passed.
      assert.ok(iterations.not_run > 0 && iterations.passed >= 48, JSON.stringify(iterations));
      assert.equal(iterations.passed + iterations.failed + iterations.not_run, 100_000);
      assert.ok(
        overall.requests >= 50 && overall.requests <= server.total(),
        JSON.stringify(overall),
      );
      assert.ok(json.flows.length <= 21, `listed: ${json.flows.length}`);
      const junit = await Deno.readTextFile(`${dir}/junit.xml`);
      assert.ok(junit.endsWith("</testsuites>\n"), junit.slice(-200));
      if (!ignoreXsd) await validateJUnitFile(`${dir}/junit.xml`);
      assert.match(run.stdout, /Latency of 100000 iterations .* not run; /);
    });
  } finally {
    await server.close();
  }
});
