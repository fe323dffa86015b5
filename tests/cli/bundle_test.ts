/**
 * `deno task bundle` (scripts/bundle.ts) and the choice `cli.ts` makes
 * between the bundle and the source (cli/current_bundle.ts), on a copy of
 * the project so that the checkout's own bundle is never touched. The
 * bundle's copies of the version and of the worker module are marked after
 * it is written, so each assertion sees which code ran, and a real run on
 * worker threads, with schema and XPath checks on the helper thread and
 * every report, goes through the bundle.
 */
import assert from "node:assert/strict";
import { XMLParser } from "fast-xml-parser";
import { type BundleInputs, fileSha256 } from "../../cli/current_bundle.ts";
import { RUNNER_PERMISSIONS, RUNNER_V8_FLAGS } from "../../scripts/permissions.ts";
import { root } from "../support/cli.ts";

const COPIED = ["cli.ts", "cli", "lib", "scripts", "deno.json", "deno.lock"];
const decoder = new TextDecoder();

async function copy(from: string, to: string): Promise<void> {
  const info = await Deno.stat(from);
  if (!info.isDirectory) return await Deno.copyFile(from, to);
  await Deno.mkdir(to);
  for await (const entry of Deno.readDir(from)) {
    await copy(`${from}/${entry.name}`, `${to}/${entry.name}`);
  }
}

/** A copy of the project's code, bundled, with the bundle's version and worker module marked. */
async function bundledCopy(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-bundle-" });
  for (const name of COPIED) await copy(`${root}${name}`, `${dir}/${name}`);
  const made = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${dir}/scripts/bundle.ts`],
    cwd: dir,
    env: { NO_COLOR: "1" },
  }).output();
  assert.equal(made.code, 0, decoder.decode(made.stderr));
  assert.match(decoder.decode(made.stdout), /^wrote dist\/bundle\/: \d+ files from \d+ inputs\n$/);
  let marked = 0;
  for await (const entry of Deno.readDir(`${dir}/dist/bundle`)) {
    const path = `${dir}/dist/bundle/${entry.name}`;
    if (!entry.isFile || !entry.name.endsWith(".js")) continue;
    const text = await Deno.readTextFile(path);
    if (!text.includes('version: "0.1.0"')) continue;
    await Deno.writeTextFile(path, text.replace('version: "0.1.0"', 'version: "0.1.0-bundled"'));
    marked++;
  }
  assert.equal(marked, 1, "the version is in one file of the bundle");
  const worker = `${dir}/dist/bundle/lib/run/workers/worker_main.js`;
  const started = JSON.stringify(`${dir}/worker-started`);
  await Deno.writeTextFile(
    worker,
    `Deno.writeTextFileSync(${started}, "from the bundle");\n${await Deno.readTextFile(worker)}`,
  );
  return dir;
}

async function flowrun(dir: string, args: string[]): Promise<Deno.CommandOutput> {
  return await new Deno.Command(Deno.execPath(), {
    args: ["run", ...RUNNER_PERMISSIONS, ...RUNNER_V8_FLAGS, `${dir}/cli.ts`, ...args],
    cwd: dir,
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
    stdin: "null",
  }).output();
}

async function version(dir: string): Promise<string> {
  const out = await flowrun(dir, ["--version"]);
  assert.equal(out.code, 0, decoder.decode(out.stderr));
  assert.equal(decoder.decode(out.stderr), "");
  return decoder.decode(out.stdout).split(" ")[1];
}

Deno.test("cli.ts runs the bundle only while every file it was made from is unchanged", async () => {
  const dir = await bundledCopy();
  try {
    const inputs: BundleInputs = JSON.parse(
      await Deno.readTextFile(`${dir}/dist/bundle/inputs.json`),
    );
    assert.equal(inputs.deno, Deno.version.deno);
    assert.equal(inputs.entry, "cli/bundle_entry.js");
    const listed = new Map(inputs.files.map(([path, size]) => [path, size]));
    for (const [path, , , sha256] of inputs.files.slice(0, 5)) {
      assert.equal(sha256, await fileSha256(`${dir}/${path}`), path);
    }
    for (
      const path of [
        "deno.json",
        "deno.lock",
        "cli/main.ts",
        "cli/run/mod.ts",
        "cli/convert.ts",
        "lib/run/flows.ts",
        "lib/run/workers/worker_main.ts",
        "lib/report/html_assets/report.css",
      ]
    ) {
      assert.equal(listed.get(path), (await Deno.stat(`${dir}/${path}`)).size, path);
    }
    assert.equal(await version(dir), "0.1.0-bundled");

    // Each file of the bundle has a source map naming the modules it holds, so a stack trace from
    // the bundle names lib/… lines.
    const entryMap = JSON.parse(
      await Deno.readTextFile(`${dir}/dist/bundle/cli/bundle_entry.js.map`),
    );
    assert.ok(
      entryMap.sources.some((s: string) => s.endsWith("cli/main.ts")),
      JSON.stringify(entryMap.sources),
    );

    // One input touched, its bytes the same (Deno rewrites deno.lock so): still the bundle.
    const input = `${dir}/lib/model/errors.ts`;
    const { atime, mtime } = await Deno.stat(input);
    await Deno.utime(input, atime!, new Date(mtime!.getTime() + 10_000));
    assert.equal(await version(dir), "0.1.0-bundled");
    // Its bytes changed, the size kept: the source; the old bytes back (a new time): the bundle.
    const text = await Deno.readTextFile(input);
    assert.ok(text.includes(" * "));
    await Deno.writeTextFile(input, text.replace(" * ", " *-"));
    assert.equal((await Deno.stat(input)).size, new TextEncoder().encode(text).length);
    assert.equal(await version(dir), "0.1.0");
    await Deno.writeTextFile(input, text);
    assert.equal(await version(dir), "0.1.0-bundled");

    // Another Deno made it, or its list cannot be read: the source, and not a word about it.
    const list = `${dir}/dist/bundle/inputs.json`;
    const kept = await Deno.readTextFile(list);
    await Deno.writeTextFile(list, JSON.stringify({ ...inputs, deno: "0.0.1" }));
    assert.equal(await version(dir), "0.1.0");
    await Deno.writeTextFile(list, "{ not json");
    assert.equal(await version(dir), "0.1.0");
    await Deno.remove(list);
    assert.equal(await version(dir), "0.1.0");
    await Deno.writeTextFile(list, kept);
    assert.equal(await version(dir), "0.1.0-bundled");

    // A file of the bundle deleted (its list still current): the source, and not a word.
    const entry = `${dir}/dist/bundle/cli/bundle_entry.js`;
    const entryText = await Deno.readTextFile(entry);
    await Deno.remove(entry);
    assert.equal(await version(dir), "0.1.0");
    await Deno.writeTextFile(entry, entryText);
    assert.equal(await version(dir), "0.1.0-bundled");

    // An input gone (a file deleted since): the source, which does not need it.
    await Deno.rename(`${dir}/deno.lock`, `${dir}/deno.lock.moved`);
    assert.equal(await version(dir), "0.1.0");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const OPENAPI_30 = `openapi: 3.0.3
info: { title: items, version: "1" }
paths:
  /item:
    get:
      responses:
        "200":
          description: an item
          content:
            application/json:
              schema:
                type: object
                required: [id, name, tags]
                properties:
                  id: { type: integer }
                  name: { type: string, nullable: true }
                  tags: { type: array, items: { type: string } }
`;

const XML = `<?xml version="1.0"?><order id="7"><line sku="a"/><line sku="b"/></order>`;

function server(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/order.xml") {
      return new Response(XML, { headers: { "content-type": "application/xml" } });
    }
    return Response.json({ id: 7, name: "widget", tags: ["a"] });
  });
}

function flowText(n: number, base: string): string {
  const failing = n === 3;
  return `name: flow ${n}
steps:
  - name: item
    request: { method: GET, url: "${base}/item" }
    assert:
      status: 200
      schema: { type: object, required: [id, name], properties: { id: { type: integer } } }
      openapi: ../api.yaml
      json:
        - { path: $.json.name, equals: ${failing ? "gadget" : "widget"} }
        - { path: "$.json.tags[?match(@, 'a')]", equals: [a] }
  - name: order
    request: { method: GET, url: "${base}/order.xml" }
    assert:
      json:
        - { xpath: "count(//line)", equals: 2 }
        - { xpath: "string(/order/@id)", equals: "7" }
`;
}

/** Runs the six flows on two threads with every report, and checks what they hold. */
async function runsEveryCheck(dir: string, version: string): Promise<void> {
  const out = await flowrun(dir, [
    "run",
    "flows",
    "--workers",
    "2",
    "--jobs",
    "2",
    "--out-dir",
    "reports",
  ]);
  const stdout = decoder.decode(out.stdout);
  assert.equal(out.code, 1, `${stdout}\n${decoder.decode(out.stderr)}`);
  assert.ok(stdout.startsWith(`flowrun ${version} · run `), stdout.slice(0, 80));

  const json = JSON.parse(await Deno.readTextFile(`${dir}/reports/report.json`));
  assert.equal(json.flows.length, 6);
  assert.deepEqual(
    json.flows.map((f: { name: string; status: string }) => `${f.name}: ${f.status}`),
    [1, 2, 3, 4, 5, 6].map((n) => `flow ${n}: ${n === 3 ? "failed" : "passed"}`),
  );
  const failed = json.flows[2].steps[0].assertions.filter((a: { passed: boolean }) => !a.passed);
  assert.equal(failed.length, 1);
  assert.match(JSON.stringify(failed[0]), /gadget/);
  const checks = json.flows[0].steps.flatMap((s: { assertions: unknown[] }) => s.assertions);
  // Status, schema, OpenAPI 3.0 (its nullable rewritten on the helper thread), two paths (one a
  // filter, evaluated there too), two XPath expressions: each ran and passed.
  assert.equal(checks.length, 7, JSON.stringify(checks));
  assert.ok(checks.every((c: { passed: boolean }) => c.passed), JSON.stringify(checks));

  const junit = new XMLParser({ ignoreAttributes: false }).parse(
    await Deno.readTextFile(`${dir}/reports/junit.xml`),
  );
  assert.equal(junit.testsuites["@_failures"], "1");
  const html = await Deno.readTextFile(`${dir}/reports/report.html`);
  assert.ok(html.startsWith("<!doctype html>") && html.includes("flow 3"), html.slice(0, 200));
}

Deno.test("the bundle, and the source once an input changed, run flows on two threads with schema, XPath and every report", async () => {
  const dir = await bundledCopy();
  const api = server();
  try {
    const base = `http://127.0.0.1:${api.addr.port}`;
    await Deno.mkdir(`${dir}/flows`);
    for (let n = 1; n <= 6; n++) {
      await Deno.writeTextFile(`${dir}/flows/f${n}.yaml`, flowText(n, base));
    }
    await Deno.writeTextFile(`${dir}/api.yaml`, OPENAPI_30);
    await runsEveryCheck(dir, "0.1.0-bundled");
    assert.equal(await Deno.readTextFile(`${dir}/worker-started`), "from the bundle");

    // The same run from source once an input changed: the same results, the source's workers.
    await Deno.remove(`${dir}/worker-started`);
    await Deno.writeTextFile(`${dir}/lib/model/errors.ts`, "\n", { append: true });
    await runsEveryCheck(dir, "0.1.0");
    assert.equal(await Deno.stat(`${dir}/worker-started`).catch(() => undefined), undefined);
  } finally {
    await api.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
