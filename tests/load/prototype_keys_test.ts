/**
 * Names of `Object.prototype` members (`constructor`, `toString`, …,
 * `__proto__`) are ordinary names wherever a name comes from input: as a key
 * of any map of a flow (an unknown one is the usual unknown-key problem, a
 * free one a name like any other), as any value, and in what the run sends,
 * receives, captures and reports.
 */
import assert from "node:assert/strict";
import { parseDocument, type Scalar, visit, type YAMLMap } from "yaml";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { root, runCli } from "../support/cli.ts";
import "../support/engines.ts";
import { PROTOTYPE_NAMES } from "../support/hostile.ts";

/** What a message shows when a lookup found an inherited member instead of nothing. */
const INHERITED = /\[native code\]|\[object |function |undefined"|Cannot read prop/;

const SOURCES = ["examples/flows", "examples/recipes"];

async function examples(): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  for (const dir of SOURCES) {
    for await (const entry of Deno.readDir(`${root}${dir}`)) {
      if (entry.isFile && entry.name.endsWith(".yaml")) {
        out.push([entry.name, await Deno.readTextFile(`${root}${dir}/${entry.name}`)]);
      }
    }
  }
  return out.sort((a, b) => a[0] < b[0] ? -1 : 1);
}

/**
 * Variants of `text`: each map given each of `keys` as a key, each scalar
 * value set to one of `values` in turn (bounded: a few thousand in all).
 */
function variants(text: string, keys: readonly string[], values: readonly string[]): string[] {
  const out: string[] = [];
  const doc = parseDocument(text);
  const maps: YAMLMap[] = [];
  const scalars: Scalar[] = [];
  visit(doc, {
    Map: (_, node) => void maps.push(node),
    Scalar: (_, node) => void scalars.push(node),
  });
  for (const map of maps) {
    for (const name of keys) {
      map.items.push(doc.createPair(doc.createNode(name), 1));
      out.push(doc.toString({ lineWidth: 0 }));
      map.items.pop();
    }
  }
  for (const [i, scalar] of scalars.entries()) {
    const kept = scalar.value;
    scalar.value = values[i % values.length];
    out.push(doc.toString({ lineWidth: 0 }));
    scalar.value = kept;
  }
  return out;
}

Deno.test("a prototype name as any key or any value of the example flows loads or is a plain problem", async () => {
  let unknown = 0;
  // A function (constructor, toString) and an object (__proto__) are what a lookup finds.
  const keys = ["constructor", "toString", "hasOwnProperty", "__proto__", "prototype"];
  // Scalars include keys: every key is also renamed in turn.
  const values = ["constructor", "__proto__", "valueOf"];
  for (const [file, text] of await examples()) {
    for (const [i, variant] of variants(text, keys, values).entries()) {
      const where = `${file} variant ${i}`;
      let result;
      try {
        result = loadFlow(variant, file, { env: () => "x" });
      } catch (error) {
        assert.fail(`${where}: ${(error as Error).stack}\n${variant}`);
      }
      assert.ok(result.flow || result.problems.length > 0, where);
      for (const p of result.problems) {
        assert.ok(p.line >= 1 && p.column >= 1, `${where}: ${p.code} at ${p.line}:${p.column}`);
        const text = `${p.message} ${p.hint ?? ""}`;
        assert.doesNotMatch(text, INHERITED, `${where}: ${p.code}: ${text}`);
        if (p.code === "unknown-key") {
          unknown++;
          assert.ok(
            [...keys, ...values].some((k) => p.message.includes(`"${k}"`)),
            `${where}: ${p.message}`,
          );
        }
      }
    }
  }
  assert.ok(unknown > 100, `${unknown} unknown-key problems: the names reach the key tables`);
});

Deno.test("an unknown key named like a prototype member is the unknown-key problem in validate", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-proto-" });
  try {
    for (const name of PROTOTYPE_NAMES) {
      await Deno.writeTextFile(
        `${dir}/${name}.yaml`,
        `name: t\nsteps:\n  - name: s\n    ${name}: 1\n    request: {url: "http://127.0.0.1:9/"}\n`,
      );
    }
    const result = await runCli(["validate", dir, "--no-env"]);
    const output = result.stdout + result.stderr;
    assert.equal(result.code, 2, output);
    assert.doesNotMatch(output, /internal error|^\s+at /m);
    for (const name of PROTOTYPE_NAMES) {
      assert.ok(
        output.includes(`${name}.yaml:4:5 error[unknown-key]: Unknown key "${name}" in step "s".`),
        `${name}\n${output}`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** An API that answers every request with what it received, and with prototype names of its own. */
function echo() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const headers = new Headers({ "content-type": "application/json" });
    for (const name of PROTOTYPE_NAMES) headers.append(`x-${name}`, name);
    for (const name of PROTOTYPE_NAMES) headers.append("set-cookie", `${name}=k-${name}; Path=/`);
    const body = JSON.stringify({
      path: url.pathname,
      query: [...url.searchParams],
      headers: [...req.headers].filter(([n]) => n.startsWith("x-") || n === "cookie"),
      body: await req.text(),
      // Members named like prototype ones, at the top and nested.
      constructor: "c",
      ["__proto__"]: { toString: "t", hasOwnProperty: 3 },
      list: [{ constructor: 1, valueOf: 2 }],
    });
    return new Response(body, { headers });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

const flowWith = (url: string, name: string) =>
  `name: proto ${name}
vars:
  ${name}: v-${name}
data:
  - { ${name}: row-${name}, name: first }
steps:
  - name: ${name}
    request:
      method: POST
      url: "${url}/\${vars.${name}}"
      query: { ${name}: "\${vars.${name}}" }
      headers: { x-${name}: "\${vars.${name}}", x-value: ${name} }
      body: { ${name}: { ${name}: "\${vars.${name}}" }, list: [${name}] }
    capture:
      ${name}: $.json.constructor
      nested: "$.json.__proto__"
      header: { header: x-${name} }
      cookie: { cookie: ${name} }
      list: "$.json.list[0]"
    assert:
      status: 200
      json:
        - { path: "$.json.path", equals: "/row-${name}" }
        - { path: "$.json.constructor", equals: c }
        - { path: "$.json.__proto__.toString", equals: t }
        - { path: "$.json.list[0].constructor", equals: 1 }
        - { path: "$.json.list[0].${name}", exists: ${
    name === "constructor" || name === "valueOf"
  } }
        - { path: "$.headers.x-${name}", equals: ${name} }
        - { path: "$.json.body", contains: '"${name}":{"${name}":"row-${name}"}' }
  - name: use
    if:
      value: "\${steps.${name}.capture.${name}}"
      equals: c
    include: ${name}_inc.yaml
    with: { ${name}: "\${steps.${name}.header}" }
  - name: after
    request:
      method: POST
      url: "${url}/after"
      form: { ${name}: "\${steps.use.${name}}", cookie: "\${steps.${name}.cookie}" }
    assert:
      json:
        - { path: "$.json.body", equals: "${name}=%2Finner%2F${name}&cookie=k-${name}" }
`;

const includedWith = (url: string, name: string) =>
  `name: included ${name}
vars:
  ${name}: default
steps:
  - name: inner
    request: { url: "${url}/inner/\${vars.${name}}" }
    capture: { ${name}: $.json.path }
outputs:
  ${name}: "\${steps.inner.${name}}"
`;

Deno.test("prototype names as vars, data columns, headers, bodies, captures, with and outputs run like any name", async () => {
  const api = echo();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-proto-run-" });
  try {
    for (const name of PROTOTYPE_NAMES) {
      await Deno.writeTextFile(`${dir}/${name}.yaml`, flowWith(api.url, name));
      await Deno.writeTextFile(`${dir}/${name}_inc.yaml`, includedWith(api.url, name));
    }
    const files = PROTOTYPE_NAMES.map((n) => `${dir}/${n}.yaml`);
    const result = await runCli(["run", ...files, "--report-json", `${dir}/report.json`]);
    const output = result.stdout + result.stderr;
    assert.doesNotMatch(output, /internal error|^\s+at /m, output);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
    for (const flow of report.flows) {
      for (const step of flow.steps) {
        assert.equal(step.status, "passed", `${flow.name} › ${step.name}: ${JSON.stringify(step)}`);
      }
    }
    assert.equal(result.code, 0, output);
  } finally {
    api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("reports named like prototype members are written as files of those names", async () => {
  const api = echo();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-proto-out-" });
  try {
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: f\nsteps:\n  - name: s\n    request: {url: "${api.url}/"}\n`,
    );
    const result = await runCli(
      ["run", "f.yaml", "--report-json", "toString", "--report-junit", "constructor"],
      { cwd: dir },
    );
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(JSON.parse(await Deno.readTextFile(`${dir}/toString`)).status, "passed");
    assert.match(await Deno.readTextFile(`${dir}/constructor`), /<testsuites/);
  } finally {
    api.close();
    await Deno.remove(dir, { recursive: true });
  }
});
