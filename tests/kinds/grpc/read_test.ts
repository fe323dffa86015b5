/**
 * A grpc: step read at load (lib/kinds/grpc/read.ts through loadFlow):
 * every mistake one positioned problem with a code, before anything is
 * sent; and `validate` listing them all from the CLI.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../../lib/load/load_flow.ts";
import type { GrpcSpec } from "../../../lib/kinds/grpc/spec.ts";
import { runCli } from "../../support/cli.ts";
import { flowDir } from "./support.ts";
import { grpcReader } from "../../../lib/kinds/grpc/mod.ts";

// loadFlow is synchronous: the reader it calls (protobufjs) is loaded first, as loadFlows would.
await grpcReader.load();

const FIXTURES = new URL("../../fixtures/grpc/", import.meta.url).pathname;
const FILE = `${FIXTURES}flow.yaml`;

/** The loader's file reader, over the fixtures folder (as loadFlows gives it). */
const files = {
  readFile: (path: string, from: string) => {
    const full = path.startsWith("/") ? path : `${from.slice(0, from.lastIndexOf("/") + 1)}${path}`;
    try {
      return { bytes: Deno.readFileSync(full) };
    } catch {
      return { message: "no such file" };
    }
  },
};

/** A flow of one grpc step whose map is `grpc` (YAML flow-style lines, indented under grpc:). */
function load(grpc: string) {
  const text = `name: f\nsteps:\n  - name: s\n    grpc:\n${
    grpc.trim().split("\n").map((l) => `      ${l}`).join("\n")
  }\n`;
  return loadFlow(text, FILE, files);
}

const BASE = `target: "127.0.0.1:50051"\nproto: protos/atlas.proto\n`;

Deno.test("a unary call reads into its spec: the method from the .proto, the message checked", () => {
  const { flow, problems } = load(
    `${BASE}method: atlas.Atlas/GetPlace\nmessage: { latitude: 1, longitude: 2 }\n` +
      `metadata: { Authorization: "Bearer x" }`,
  );
  assert.deepEqual(problems, []);
  const spec = flow!.steps[0].call!.spec as GrpcSpec;
  assert.equal(flow!.steps[0].call!.kind, "grpc");
  assert.equal(spec.codec?.path, "/atlas.Atlas/GetPlace");
  assert.equal(spec.codec?.requestStream, false);
  assert.deepEqual(spec.metadata.map(([n]) => n), ["authorization"]);
  assert.equal(spec.maxMessages, 1000);
});

Deno.test("a method the .proto lacks names the nearest, at the method", () => {
  const { problems } = load(`${BASE}method: atlas.Atlas/GetPlac`);
  assert.equal(problems.length, 1, JSON.stringify(problems));
  assert.equal(problems[0].code, "bad-grpc-method");
  assert.equal(problems[0].line, 7);
  assert.match(
    problems[0].message,
    /^No method "GetPlac" in service atlas\.Atlas; did you mean "GetPlace"\? it has "GetPlace", "ListPlaces"/,
  );
  const service = load(`${BASE}method: atlas.Atla/GetPlace`).problems;
  assert.match(
    service[0].message,
    /No service atlas\.Atla .*did you mean atlas\.Atlas\?/,
  );
  assert.equal(load(`${BASE}method: GetPlace`).problems[0].code, "bad-grpc-method");
});

Deno.test("message vs messages must fit the method's streaming shape", () => {
  const one = load(`${BASE}method: atlas.Atlas/RecordTrip\nmessage: { latitude: 1 }`);
  assert.equal(one.problems[0].code, "bad-grpc-message");
  assert.match(
    one.problems[0].message,
    /RecordTrip takes a stream of messages, but the step has "message"/,
  );
  const many = load(`${BASE}method: atlas.Atlas/GetPlace\nmessages: [{ latitude: 1 }]`);
  assert.match(
    many.problems[0].message,
    /GetPlace takes one message, but the step has "messages"/,
  );
  const both = load(`${BASE}method: atlas.Atlas/GetPlace\nmessage: {}\nmessages: []`);
  assert.equal(both.problems[0].code, "conflicting-keys");
});

Deno.test("a constant message's fields are checked against the request type, positioned", () => {
  const cases: [string, RegExp][] = [
    [
      "message: { lat: 1 }",
      /"message" has "lat", which is not a field of atlas\.Point; did you mean "latitude"\?/,
    ],
    ["message: { latitude: abc }", /Expected "message"\.latitude to be int32, got "abc"/],
    ["message: [1]", /Expected "message" to be a map of Point's fields, got \[1\]/],
  ];
  for (const [message, expected] of cases) {
    const { problems } = load(`${BASE}method: atlas.Atlas/GetPlace\n${message}`);
    assert.equal(problems.length, 1, message);
    assert.equal(problems[0].code, "bad-grpc-message");
    assert.equal(problems[0].line, 8);
    assert.match(problems[0].message, expected);
  }
  const list = load(
    `${BASE}method: atlas.Atlas/TripChat\nmessages:\n  - { message: hi }\n  - { mesage: hi }`,
  ).problems;
  assert.equal(list.length, 1);
  assert.equal(list[0].line, 10, "at the second item");
  assert.match(list[0].message, /"messages\[1\]" has "mesage".*did you mean "message"\?/);
  // snake_case and lowerCamelCase names are both fields; a ${…} value waits for the run.
  const ok = load(
    `${BASE}method: atlas.Atlas/TripChat\nmessages: [{ location: { latitude: "\${vars.x}" } }]`,
  );
  assert.ok(!ok.problems.some((p) => p.code === "bad-grpc-message"), JSON.stringify(ok.problems));
});

Deno.test("target, tls, proto, metadata and max_messages mistakes are positioned", () => {
  const codes = (grpc: string) => load(grpc).problems.map((p) => `${p.code}@${p.line}`);
  const m = "method: atlas.Atlas/GetPlace";
  assert.deepEqual(codes(`target: "http://x:1"\nproto: protos/atlas.proto\n${m}`), [
    "bad-url@5",
  ]);
  assert.deepEqual(codes(`${BASE}${m}\ntls: yes-please`), ["wrong-type@8"]);
  assert.deepEqual(codes(`target: "h:1"\nproto: protos/gone.proto\n${m}`), ["file-read@6"]);
  assert.deepEqual(codes(`target: "h:1"\nproto: bad.proto\n${m}`), ["bad-proto@6"]);
  assert.deepEqual(codes(`${BASE}${m}\nmetadata: { grpc-timeout: 1 }`), ["bad-header@8"]);
  assert.deepEqual(codes(`${BASE}${m}\nmax_messages: 0`), ["wrong-type@8"]);
  assert.deepEqual(codes(`${BASE}${m}\nmesage: {}`), ["unknown-key@8"]);
  assert.deepEqual(codes(`proto: protos/atlas.proto\n${m}`), ["missing-key@4"]);
  const parse = load(`target: "h:1"\nproto: bad.proto\n${m}`).problems[0].message;
  assert.match(parse, /do not parse: .*bad\.proto, line \d+/);
});

Deno.test("an import is found in import_paths, else it is a problem naming the folders tried", () => {
  const m = "method: imports.Mirror/Reflect";
  const ok = load(
    `target: "h:1"\nproto: importer.proto\nimport_paths: [protos]\n${m}\nmessage: { point: { latitude: 1 }, at: "2024-05-01T12:00:00Z" }`,
  );
  assert.deepEqual(ok.problems, []);
  const missing = load(`target: "h:1"\nproto: importer.proto\n${m}`).problems;
  assert.equal(missing[0].code, "bad-proto");
  assert.match(missing[0].message, /imports "atlas\.proto", which none of/);
});

Deno.test("validate lists every grpc mistake of a file, positioned, and sends nothing", async () => {
  const dir = await flowDir(
    `name: f\nsteps:\n  - name: a\n    grpc:\n      target: "127.0.0.1:1"\n` +
      `      proto: protos/atlas.proto\n      method: atlas.Atlas/GetPlac\n` +
      `  - name: b\n    grpc:\n      target: "127.0.0.1:1"\n      proto: protos/atlas.proto\n` +
      `      method: atlas.Atlas/GetPlace\n      message: { lat: 1 }\n`,
  );
  try {
    const run = await runCli(["validate", `${dir}/flow.yaml`]);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    const out = run.stdout + run.stderr;
    assert.match(out, /flow\.yaml:7:\d+ error\[bad-grpc-method\]: No method "GetPlac"/);
    assert.match(out, /flow\.yaml:13:\d+ error\[bad-grpc-message\]: "message" has "lat"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("assert.status takes the step kind's codes: gRPC's 0 to 16 here, HTTP's 100 to 599 elsewhere", () => {
  const step = (assertion: string, loop = "") =>
    `name: f\nsteps:\n  - name: s\n    grpc: {target: "127.0.0.1:50051", proto: protos/atlas.proto, ` +
    `method: atlas.Atlas/GetPlace}\n    assert: {status: ${assertion}}\n${loop}`;
  assert.deepEqual(loadFlow(step("5"), FILE, files).problems, []);
  assert.deepEqual(loadFlow(step("{anyOf: [0, 16]}"), FILE, files).problems, []);
  const http = loadFlow(step("200"), FILE, files).problems;
  assert.equal(http.length, 1, JSON.stringify(http));
  assert.match(http[0].message, /to be a gRPC status code from 0 \(OK\) to 16 or/);
  const listed = loadFlow(step("{in: [0, 404]}"), FILE, files).problems;
  assert.match(listed[0]?.message ?? "", /^Expected a gRPC status code from 0 \(OK\) to 16, got/);
  // A loop's until reads the kind's codes too.
  const until = "    loop: {max_attempts: 2, until: {status: 14}}\n";
  assert.deepEqual(loadFlow(step("0", until), FILE, files).problems, []);
  // An HTTP step's status is HTTP's: gRPC's 5 is no status of an HTTP answer.
  const plain = loadFlow(
    'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n    assert: {status: 5}\n',
    "f.yaml",
  ).problems;
  assert.match(plain[0]?.message ?? "", /to be a status code from 100 to 599 or/);
});
