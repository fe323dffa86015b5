/**
 * grpc: steps run by the CLI against a real gRPC server started here
 * (grpc-js serving the atlas service and the standard health service): the
 * four call shapes, metadata in and out, a NOT_FOUND status checked, a
 * capture feeding the next call, polling on the health status, TLS with a
 * test CA, and retries on UNAVAILABLE — each read back from the JSON report.
 */
import assert from "node:assert/strict";
import { runBounded, runCli } from "../../support/cli.ts";
import { forwardProxy } from "../../support/tls.ts";
import { flowDir, runReport, tlsAtlas, tlsTest } from "./support.ts";
import { servedAtlas } from "./served.ts";

const STEP = (name: string, method: string, rest: string) =>
  `  - name: ${name}\n    grpc:\n      target: "127.0.0.1:\${vars.port}"\n` +
  `      proto: protos/atlas.proto\n      method: atlas.Atlas/${method}\n${rest}`;

const FLOW = `name: atlas
vars: { port: "0" }
steps:
${
  STEP(
    "place",
    "GetPlace",
    `      message: { latitude: 405551234, longitude: -744442468 }
      metadata: { x-echo: "hello there" }
    capture: { place: $.json.name }
    assert:
      status: 0
      headers: { x-echo: "hello there", grpc-status: "0" }
      json: [{ path: $.json.location.latitude, equals: 405551234 }]
`,
  )
}${
  STEP(
    "nowhere",
    "GetPlace",
    `      message: { latitude: 0, longitude: 0 }
    assert:
      status: 5
      headers: { grpc-message: "No place at 0, 0" }
`,
  )
}${
  STEP(
    "area",
    "ListPlaces",
    `      message:
        lo: { latitude: 400000000, longitude: -750000000 }
        hi: { latitude: 420000000, longitude: -730000000 }
    assert:
      json:
        - { path: $.json, length: 3 }
        - { path: "$.json[*].name", contains: "\${steps.place.capture.place}" }
`,
  )
}${
  STEP(
    "trip",
    "RecordTrip",
    `      messages:
        - { latitude: 401234567, longitude: -741234567 }
        - { latitude: 403456789, longitude: -738765432 }
        - { latitude: 5, longitude: 5 }
    assert:
      json:
        - { path: $.json.pointCount, equals: 3 }
        - { path: $.json.placeCount, equals: 2 }
`,
  )
}${
  STEP(
    "chat",
    "TripChat",
    `      messages:
        - { location: { latitude: 1, longitude: 2 }, message: "first" }
        - { location: { latitude: 3, longitude: 4 }, message: "\${steps.place.capture.place}" }
    assert:
      json:
        - { path: $.json, length: 2 }
        - { path: "$.json[1].message", equals: "echo: Cedar Marsh Boardwalk and Heron Hide, Ardent Vale, east 14" }
`,
  )
}  - name: healthy
    grpc:
      target: "127.0.0.1:\${vars.port}"
      proto: protos/health.proto
      method: grpc.health.v1.Health/Check
      message: { service: atlas.Atlas }
    loop:
      max_attempts: 5
      sleep_ms: 1
      until:
        json: [{ path: $.json.status, equals: SERVING }]
`;

interface Step {
  name: string;
  status: string;
  attempts: number;
  request: { method: string; url: string };
  response?: { status: number };
  assertions: { passed: boolean; message: string }[];
  message?: string;
}

function run(flow: string, args: string[] = [], port = 0) {
  return runReport<Step>(flow, port, args);
}

Deno.test("the atlas server's four call shapes, metadata, NOT_FOUND, captures and health polling", async () => {
  const server = await servedAtlas();
  try {
    const { cli, steps } = await run(FLOW, [], server.port);
    assert.equal(cli.code, 0, cli.stdout + cli.stderr);
    assert.deepEqual(steps.map((s) => [s.name, s.status]), [
      ["place", "passed"],
      ["nowhere", "passed"],
      ["area", "passed"],
      ["trip", "passed"],
      ["chat", "passed"],
      ["healthy", "passed"],
    ]);
    assert.equal(steps[0].request.method, "GRPC");
    assert.equal(
      steps[0].request.url,
      `grpc://127.0.0.1:${server.port}/atlas.Atlas/GetPlace`,
    );
    assert.equal(steps[1].response?.status, 5);
    assert.equal(steps[5].attempts, 3, "SERVING at the third check");
    assert.deepEqual(server.calls.map((c) => c.method), [
      "GetPlace",
      "GetPlace",
      "ListPlaces",
      "RecordTrip",
      "TripChat",
    ]);
    // The process ended by itself: the channel did not hold it open.
    assert.match(cli.stdout, /1 flow: 1 passed/);
  } finally {
    await server.close();
  }
});

Deno.test("a failed check on a gRPC response fails the step like an HTTP one, exit 1", async () => {
  const server = await servedAtlas();
  try {
    const { cli, steps } = await run(
      `name: f\nvars: { port: "0" }\nsteps:\n${
        STEP("nowhere", "GetPlace", "      message: {}\n    assert: { status: 0 }\n")
      }`,
      [],
      server.port,
    );
    assert.equal(cli.code, 1, cli.stdout);
    assert.equal(steps[0].status, "failed");
    assert.equal(steps[0].response?.status, 5);
    assert.match(cli.stdout, /status/);
  } finally {
    await server.close();
  }
});

Deno.test("UNAVAILABLE is retried like a network error; a closed port is a network error", async () => {
  const server = await servedAtlas({ bad: "unavailable-twice" });
  const flow = (retry: string) =>
    `name: f\nvars: { port: "0" }\nsteps:\n${
      STEP(
        "flaky",
        "GetPlace",
        `      message: {}\n${retry ? `    options: { retry: ${retry} }\n` : ""}`,
      )
    }`;
  try {
    const ok = await run(flow("{ count: 2, delay: 1ms }"), [], server.port);
    assert.equal(ok.cli.code, 0, ok.cli.stdout);
    assert.equal(ok.steps[0].attempts, 3);
    assert.equal(server.calls.length, 3);
  } finally {
    await server.close();
  }
  // The port the closed server had now refuses connections.
  const refused = await run(flow(""), [], server.port);
  assert.equal(refused.cli.code, 1, refused.cli.stdout);
  assert.equal(refused.steps[0].status, "error");
  assert.match(refused.steps[0].message ?? "", /unavailable \(UNAVAILABLE\)/);
});

tlsTest(
  "grpcs:// with the run's CA and a client certificate; without the CA it fails, --insecure passes",
  async (certs) => {
    const server = await tlsAtlas(certs);
    const flow = `name: f\nvars: { port: "0" }\nsteps:\n  - name: tls\n    grpc:\n` +
      `      target: "grpcs://localhost:\${vars.port}"\n      proto: protos/atlas.proto\n` +
      `      method: atlas.Atlas/GetPlace\n      message: { latitude: 1 }\n` +
      `    assert: { status: 0 }\n`;
    const client = ["--cert", `${certs}/client.pem`, "--key", `${certs}/client.key`];
    try {
      const ok = await run(flow, ["--cacert", `${certs}/ca.pem`, ...client], server.port);
      assert.equal(ok.cli.code, 0, ok.cli.stdout + ok.cli.stderr);
      assert.equal(
        ok.steps[0].request.url,
        `grpcs://localhost:${server.port}/atlas.Atlas/GetPlace`,
      );
      const untrusted = await run(flow, client, server.port);
      assert.equal(untrusted.cli.code, 1, untrusted.cli.stdout);
      assert.equal(untrusted.steps[0].status, "error");
      const insecure = await run(flow, ["--insecure", ...client], server.port);
      assert.equal(insecure.cli.code, 0, insecure.cli.stdout + insecure.cli.stderr);
    } finally {
      await server.close();
    }
  },
);

Deno.test("--proxy carries the call through an HTTP CONNECT tunnel", async () => {
  const server = await servedAtlas();
  const proxy = forwardProxy();
  try {
    const { cli, steps } = await run(
      `name: f\nvars: { port: "0" }\nsteps:\n${
        STEP(
          "via proxy",
          "GetPlace",
          "      message: { latitude: 1 }\n    assert: { status: 0 }\n",
        )
      }`,
      ["--proxy", proxy.url],
      server.port,
    );
    assert.equal(cli.code, 0, cli.stdout + cli.stderr);
    assert.equal(steps[0].status, "passed");
    assert.ok(
      proxy.seen.some((s) => s.includes(`127.0.0.1:${server.port}`)),
      `the proxy saw ${JSON.stringify(proxy.seen)}`,
    );
  } finally {
    proxy.close();
    await server.close();
  }
});

Deno.test("docs/grpc.md's recipe runs as written against the atlas server, and the run exits by itself", async () => {
  const docs = await Deno.readTextFile(new URL("../../../docs/grpc.md", import.meta.url));
  const recipe = /```yaml\n([\s\S]*?)```/.exec(docs)![1];
  const server = await servedAtlas();
  const dir = await flowDir(recipe);
  try {
    const cli = await runBounded(
      ["run", `${dir}/flow.yaml`, "--var", `port=${server.port}`, "--report-json", `${dir}/r.json`],
      { env: { API_TOKEN: "recipe-token" }, ms: 60_000 },
    );
    // A channel left holding the process would have it killed at the bound instead.
    assert.equal(cli.killed, false);
    assert.equal(cli.code, 0, cli.stdout + cli.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    assert.deepEqual(report.flows[0].steps.map((s: Step) => s.status), [
      "passed",
      "passed",
      "passed",
    ]);
    assert.equal(server.calls[0].authorization, "Bearer recipe-token");
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a message with ${…} that does not fit its type fails the step with a sentence; nothing is sent", async () => {
  const server = await servedAtlas();
  try {
    const { cli, steps } = await run(
      `name: f\nvars: { port: "0", lat: "north" }\nsteps:\n${
        STEP("bad", "GetPlace", '      message: { latitude: "${vars.lat}" }\n')
      }`,
      [],
      server.port,
    );
    assert.equal(cli.code, 1, cli.stdout);
    assert.equal(steps[0].status, "error");
    assert.equal(
      steps[0].message,
      'The message for atlas.Atlas/GetPlace does not fit: Expected "message".latitude to be int32, got "north".',
    );
    assert.equal(server.calls.length, 0);
  } finally {
    await server.close();
  }
});

Deno.test("the proto3 JSON mapping both ways: well-known types, enums, 64-bit integers, bytes, maps", async () => {
  const server = await servedAtlas();
  const dir = await flowDir(`name: mapping
vars: { port: "0" }
steps:
  - name: mirror
    grpc:
      target: "127.0.0.1:\${vars.port}"
      proto: importer.proto
      import_paths: [protos]
      method: imports.Mirror/Reflect
      message:
        point: { latitude: 7 }
        at: "2024-05-01T12:00:00.5Z"
        took: "1.25s"
        extra: { a: [1, "two", true, null], b: { c: 3 } }
        count: "9007199254740993"
        tags: [x, y]
        kind: PEAK
        blob: "aGk="
        big_number: "-9007199254740993"
        scores: { alice: 3 }
    assert:
      json:
        - { path: $.json.at, equals: "2024-05-01T12:00:00.500Z" }
        - { path: $.json.took, equals: "1.25s" }
        - { path: $.json.extra.b.c, equals: 3 }
        - { path: "$.json.extra.a[1]", equals: two }
        - { path: $.json.count, equals: "9007199254740993" }
        - { path: $.json.kind, equals: PEAK }
        - { path: $.json.blob, equals: "aGk=" }
        - { path: $.json.bigNumber, equals: "-9007199254740993" }
        - { path: $.json.scores.alice, equals: 3 }
        - { path: $.json.point.longitude, equals: 0 }
`);
  await Deno.copyFile(
    new URL("../../fixtures/grpc/importer.proto", import.meta.url),
    `${dir}/importer.proto`,
  );
  try {
    const cli = await runCli(["run", `${dir}/flow.yaml`, "--var", `port=${server.port}`]);
    assert.equal(cli.code, 0, cli.stdout + cli.stderr);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
