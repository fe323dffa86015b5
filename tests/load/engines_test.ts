/**
 * Loading stays synchronous while the big parsers load on demand: a load
 * that meets input only one of them reads is run again once it is loaded;
 * any other error is the load's own, and a load that keeps asking stops.
 */
import assert from "node:assert/strict";
import { withEngines } from "../../lib/load/engines.ts";
import { ModuleNeeded, onDemand } from "../../lib/_util/on_demand.ts";

Deno.test("a load that needs an engine runs again once it is loaded", async () => {
  let imports = 0;
  const engine = onDemand("A test engine", () => {
    imports++;
    return Promise.resolve({ twice: (n: number) => n * 2 });
  });
  let runs = 0;
  const value = await withEngines(() => {
    runs++;
    return engine.get().twice(21);
  });
  assert.deepEqual([value, runs, imports], [42, 2, 1]);
  assert.equal(await withEngines(() => engine.get().twice(2)), 4);
  assert.equal(imports, 1);
});

Deno.test("other errors pass through; a load that keeps asking stops", async () => {
  await assert.rejects(() =>
    withEngines(() => {
      throw new RangeError("own");
    }), RangeError);
  let runs = 0;
  const stubborn = () => {
    runs++;
    throw new ModuleNeeded("Another engine", () => Promise.resolve());
  };
  await assert.rejects(() => withEngines(stubborn), ModuleNeeded);
  // Once per engine a load may need (YAML, JSONPath, a step kind's reader), then the last run.
  assert.equal(runs, 4);
});

Deno.test("a flow that needs all three engines loads: full YAML, a json-p3 path and a gRPC step", async () => {
  const { loadFlow } = await import("../../lib/load/load_flow.ts");
  const { grpcReader } = await import("../../lib/kinds/grpc/mod.ts");
  const { yamlEngine } = await import("../../lib/load/yaml_engine.ts");
  const { pathEngine } = await import("../../lib/expr/path_engine.ts");
  // A fresh process knows none of them: this file imports none up front.
  let needed = 0;
  try {
    yamlEngine.get();
  } catch {
    needed++;
  }
  try {
    pathEngine.get();
  } catch {
    needed++;
  }
  try {
    grpcReader.get();
  } catch {
    needed++;
  }
  const proto =
    'syntax = "proto3";\npackage p;\nservice S { rpc M (Q) returns (Q); }\nmessage Q { string a = 1; }\n';
  const text =
    `name: f\nvars: &v { x: 1 }\nsteps:\n  - name: s\n    grpc: { target: "127.0.0.1:1", proto: p.proto, method: p.S/M }\n    assert:\n      json:\n        - { path: "$.json[?@.a == 'x']", length: 0 }\n`;
  const files = {
    readFile: (path: string) =>
      path === "p.proto" ? { bytes: new TextEncoder().encode(proto) } : { message: "no such file" },
  };
  const { flow, problems } = await withEngines(() => loadFlow(text, "/tmp/f.yaml", files));
  assert.deepEqual(problems.map((p) => p.message), []);
  assert.equal(flow?.steps[0].call?.kind, "grpc");
  assert.equal(needed, 3, "each engine was loaded on demand here");
});
