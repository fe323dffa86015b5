/**
 * A step with `.proto` files and a step without (server reflection) read
 * and write messages alike: the same call through both gives the same
 * `$.json` for every proto3 JSON mapping rule (well-known types in their
 * JSON forms, 64-bit integers as strings, enums by name, bytes as base64,
 * maps), and reflection goes the way the call goes (`--proxy`'s tunnel).
 * The server is grpc-js with the official reflection service
 * (tests/fixtures/grpc_reflection/servers.ts); answers are read back from
 * the HAR report, which keeps every step's response.
 */
import assert from "node:assert/strict";
import { ATLAS_PROTO } from "../../fixtures/grpc_reflection/servers.ts";
import { runCli } from "../../support/cli.ts";
import { forwardProxy } from "../../support/tls.ts";
import { type Served, servedOfficial } from "./served.ts";

const FIXTURES = new URL("../../fixtures/grpc_reflection/", import.meta.url);

/** The message sent, in the forms a flow writes: RFC 3339, "1.25s", strings for 64-bit integers. */
const MESSAGE = `
        point: { latitude: 7 }
        at: "2024-05-01T12:00:00.5Z"
        took: "1.25s"
        extra: { a: [1, "two", true, null], b: { c: 3 } }
        count: "9007199254740993"
        tags: [x, y]
        kind: PEAK
        blob: "aGk="
        big_number: "-9007199254740993"
        scores: { alice: 3 }`;

/** What the Mirror echoes, as the proto3 JSON mapping writes it (defaults filled). */
const ECHOED = {
  point: { latitude: 7, longitude: 0 },
  at: "2024-05-01T12:00:00.500Z",
  took: "1.25s",
  extra: { a: [1, "two", true, null], b: { c: 3 } },
  count: "9007199254740993",
  tags: ["x", "y"],
  kind: "PEAK",
  blob: "aGk=",
  bigNumber: "-9007199254740993",
  scores: { alice: 3 },
};

/** A step calling the Mirror; through `proto:` files when `proto` is set, else by reflection. */
function step(name: string, proto: boolean): string {
  return `  - name: ${name}
    grpc:
      target: "127.0.0.1:\${vars.port}"
${proto ? "      proto: mirror.proto\n      import_paths: [.]\n" : ""}\
      method: imports.Mirror/Reflect
      message:${MESSAGE}
    assert:
      status: 0
      json:
        - { path: $.json.at, equals: "2024-05-01T12:00:00.500Z" }
        - { path: $.json.took, equals: "1.25s" }
        - { path: $.json.count, equals: "9007199254740993" }
        - { path: $.json.kind, equals: PEAK }
        - { path: $.json.blob, equals: "aGk=" }
        - { path: $.json.scores.alice, equals: 3 }
`;
}

/** A folder with the flow and the .proto files it names. */
async function flowDir(steps: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-grpc-parity-" });
  await Deno.copyFile(new URL("mirror.proto", FIXTURES), `${dir}/mirror.proto`);
  await Deno.copyFile(ATLAS_PROTO, `${dir}/atlas.proto`);
  await Deno.writeTextFile(
    `${dir}/flow.yaml`,
    `name: parity\nvars: { port: "0" }\nsteps:\n${steps}`,
  );
  return dir;
}

/** Runs the flow against `server` with `more` options; the HAR entries' request and response texts. */
async function run(dir: string, server: Served, more: string[] = []) {
  const port = server.target.split(":")[1];
  const cli = await runCli(
    ["run", "flow.yaml", "--var", `port=${port}`, "--report-har", "out.har", ...more],
    { cwd: dir },
  );
  assert.equal(cli.code, 0, cli.stdout + cli.stderr);
  const har = JSON.parse(await Deno.readTextFile(`${dir}/out.har`));
  return (har.log.entries as {
    request: { url: string; postData?: { text: string } };
    response: { status: number; content: { text: string } };
  }[]).map((e) => ({
    url: e.request.url,
    sent: e.request.postData?.text,
    got: e.response.content.text,
  }));
}

Deno.test("parity: the same call through .proto files and through reflection gives the same $.json", async () => {
  const server = await servedOfficial({ mirror: true });
  const dir = await flowDir(step("with-proto", true) + step("reflected", false));
  try {
    const [withProto, reflected] = await run(dir, server);
    assert.deepEqual(JSON.parse(withProto.got), ECHOED);
    assert.equal(reflected.got, withProto.got, "both routes write the answer alike");
    assert.equal(reflected.sent, withProto.sent);
    assert.equal(reflected.url, withProto.url);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parity: with --proxy, reflection goes through the call's own tunnel", async () => {
  const server = await servedOfficial({ mirror: true });
  const proxy = forwardProxy();
  const dir = await flowDir(step("reflected", false) + step("again", false));
  try {
    const [first, again] = await run(dir, server, ["--proxy", proxy.url]);
    assert.deepEqual(JSON.parse(first.got), ECHOED);
    assert.equal(again.got, first.got);
    assert.deepEqual(proxy.seen, [`CONNECT ${server.target}`], "one tunnel for everything");
    // Reflection's stream and both calls came over one connection: the tunnel's.
    const peers = server.asked.map((q) => q.peer);
    assert.equal(peers.length, 3, JSON.stringify(server.asked));
    assert.equal(new Set(peers).size, 1, JSON.stringify(peers));
  } finally {
    proxy.close();
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parity: a value that does not fit is the same sentence both ways, and nothing is sent", async () => {
  const server = await servedOfficial({ mirror: true });
  // An expression, so the .proto route too finds out when the step runs, as reflection does.
  const misfit = (name: string, proto: boolean) =>
    step(name, proto).replace("kind: PEAK", 'kind: "${vars.kind}"')
      .replace("    assert:", "    always: true\n    assert:");
  const dir = await flowDir(misfit("with-proto", true) + misfit("reflected", false));
  try {
    const port = server.target.split(":")[1];
    const cli = await runCli(
      [
        "run",
        "flow.yaml",
        "--var",
        `port=${port}`,
        "--var",
        "kind=PEEK",
        "--report-json",
        "out.json",
      ],
      { cwd: dir },
    );
    assert.equal(cli.code, 1, cli.stdout + cli.stderr);
    const steps = JSON.parse(await Deno.readTextFile(`${dir}/out.json`)).flows[0].steps;
    const sentence =
      'The message for imports.Mirror/Reflect does not fit: "message".kind is "PEEK", ' +
      'not a value of Kind (did you mean "PEAK"?).';
    assert.deepEqual(steps.map((s: { message: string }) => s.message), [sentence, sentence]);
    assert.deepEqual(steps.map((s: { status: string }) => s.status), ["error", "error"]);
    assert.equal(server.asked.filter((q) => q.mirror).length, 0, "no call reached the Mirror");
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
