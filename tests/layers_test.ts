/**
 * The folders are the architecture (scripts/check_layers.ts): imports point
 * down the stages, no cycle, no file beside a folder of its stem, `Deno.*`
 * only in lib/io/, the network only in lib/http/; and the checker catches
 * each kind of mistake this project once had.
 */
import assert from "node:assert/strict";
import {
  fileViolations,
  importCycles,
  layerViolations,
  shapeProblems,
} from "../scripts/check_layers.ts";

Deno.test("the project has the shape of its stages", async () => {
  assert.deepEqual(await shapeProblems(), []);
});

Deno.test("the checker flags imports that point up, into the CLI, or from outside every stage", () => {
  const problems = layerViolations(
    new Map([
      ["lib/secrets/mod.ts", ["lib/report/junit.ts"]],
      ["lib/run/merge.ts", ["lib/report/json.ts", "lib/model/result.ts"]],
      ["lib/io/read.ts", ["lib/select/shard.ts"]],
      ["lib/model/flow.ts", ["lib/expr/template.ts"]],
      ["lib/run/flows.ts", ["cli/output.ts"]],
      ["lib/brand_new.ts", []],
      ["cli/run.ts", ["lib/run/flows.ts"]],
    ]),
  );
  assert.deepEqual(problems.map((p) => p.split(" ").slice(0, 4).join(" ")), [
    "lib/brand_new.ts is in no",
    "lib/model/flow.ts (model) imports lib/expr/template.ts",
    "lib/run/flows.ts imports cli/output.ts: lib/",
    "lib/run/merge.ts (run) imports lib/report/json.ts",
    "lib/secrets/mod.ts (secrets) imports lib/report/junit.ts",
  ]);
});

Deno.test("the checker flags the cycles this project had, inside a folder too", () => {
  const graph = new Map([
    ["lib/http/send.ts", ["lib/http/redirect.ts", "lib/model/flow.ts"]],
    ["lib/http/redirect.ts", ["lib/http/send.ts"]],
    ["lib/report/console.ts", ["lib/report/console_step.ts"]],
    ["lib/report/console_step.ts", ["lib/report/progress.ts"]],
    ["lib/report/progress.ts", ["lib/report/console.ts"]],
    ["lib/model/flow.ts", []],
  ]);
  assert.deepEqual(importCycles(graph), [
    ["lib/http/redirect.ts", "lib/http/send.ts"],
    ["lib/report/console.ts", "lib/report/console_step.ts", "lib/report/progress.ts"],
  ]);
});

Deno.test("the checker flags Deno.* outside io/, the network outside http/, and stem clashes", () => {
  const problems = fileViolations(
    new Map([
      ["lib/io/read.ts", "export const read = (p: string) => Deno.readFile(p);"],
      ["lib/http/send.ts", 'import "node:https";\nawait fetch("http://x");'],
      ["lib/run/step.ts", "// Deno.exit is named in a comment only\nconst { env } = Deno;"],
      ["lib/report/html.ts", 'const t = "fetch(";\nconst tls = await import("node:tls");'],
      ["lib/load.ts", ""],
      ["lib/load/steps.ts", ""],
    ]),
  );
  assert.deepEqual(problems.map((p) => p.split(" ").slice(0, 3).join(" ")), [
    "lib/load.ts is loose",
    "lib/load.ts sits beside",
    "lib/report/html.ts:2 uses the",
    "lib/run/step.ts:2 names Deno.*:",
  ]);
});

Deno.test("the network is a step kind's folder's too: its clients imported, WebSocket and EventSource opened", () => {
  const problems = fileViolations(
    new Map([
      ["lib/kinds/grpc/channel.ts", 'import * as grpc from "@grpc/grpc-js";'],
      ["lib/kinds/websocket/exchange.ts", 'import WebSocket from "ws";\nnew WebSocket(url);'],
      ["lib/kinds/kind.ts", 'import "ws";'],
      ["lib/run/step.ts", "const socket = new WebSocket(url);"],
      ["lib/report/html.ts", 'const g = await import("@grpc/grpc-js");'],
      // The word "ws" as a value (a URL scheme) is no client.
      ["lib/convert/ws.ts", 'const scheme = "ws";\nconst other = url.replace(/^http/, "ws");'],
    ]),
  );
  assert.deepEqual(problems.map((p) => p.split(" ").slice(0, 3).join(" ")), [
    "lib/kinds/kind.ts:1 uses the",
    "lib/report/html.ts:1 uses the",
    "lib/run/step.ts:1 uses the",
  ]);
});
