/**
 * Server reflection (lib/kinds/grpc/reflection.ts) against real gRPC
 * servers on 127.0.0.1: the official reflection and health services, a
 * server answering as the spec (and grpc-go, grpc C++) does with the files
 * protoc compiled, and servers that misbehave. Each definition obtained is
 * used for a real call whose answer is checked.
 */
import { Buffer } from "node:buffer";
import * as assert from "node:assert/strict";
import * as grpc from "@grpc/grpc-js";
import type { PackageDefinition } from "@grpc/proto-loader";
import protobuf from "protobufjs";
import {
  reflectedDefinition,
  reflectedRoot,
  ReflectionError,
  type ReflectionOptions,
} from "../../../lib/kinds/grpc/reflection.ts";
import {
  ATLAS_PROTO,
  Ended,
  fileBytes,
  ITEM,
  PLACE,
  reflectionServer,
  servicesDefinition,
} from "../../fixtures/grpc_reflection/servers.ts";
import { runCli } from "../../support/cli.ts";
import { forwardProxy, makeCertificates } from "../../support/tls.ts";
import { withServer } from "./support.ts";
import { servedOfficial, servedSpec } from "./served.ts";

const fixtures = new URL("../../fixtures/grpc_reflection/", import.meta.url).pathname;

const insecure = (more: Partial<ReflectionOptions> = {}): ReflectionOptions => ({
  credentials: grpc.credentials.createInsecure(),
  deadlineMs: 10_000,
  ...more,
});

/** One unary call through a client made from `definition`. */
function call(
  definition: PackageDefinition,
  target: string,
  service: string,
  method: string,
  request: unknown,
  // deno-lint-ignore no-explicit-any
): Promise<any> {
  // deno-lint-ignore no-explicit-any
  let node: any = grpc.loadPackageDefinition(definition);
  for (const part of service.split(".")) node = node[part];
  const client = new node(target, grpc.credentials.createInsecure());
  return new Promise((resolve, reject) =>
    client[method](request, { deadline: Date.now() + 10_000 }, (error: Error, answer: unknown) => {
      client.close();
      error ? reject(error) : resolve(answer);
    })
  ).finally(() => client.close());
}

async function rejects(promise: Promise<unknown>, code: string, message: string | RegExp) {
  const error = await promise.then(() => undefined, (e) => e);
  assert.ok(error instanceof ReflectionError, `a ReflectionError, not ${error}`);
  assert.equal(error.code, code, error.message);
  if (typeof message === "string") assert.equal(error.message, message);
  else assert.match(error.message, message);
  return error;
}

/**
 * The inventory service through `definition`: the request (a oneof, a packed
 * list, a nested enum and message, a timestamp) as the server read it, and
 * the answer decoded as proto3's JSON mapping says, through the imported file.
 */
async function checkInventory(definition: PackageDefinition, target: string) {
  const reply = await call(definition, target, "inventory.Inventory", "Lookup", {
    itemId: "9007199254740993",
    shelfNumbers: [3, 4],
    detailLevel: "FULL",
    stockWindow: { notBefore: { seconds: "5", nanos: 0 } },
  });
  assert.deepEqual(reply.item, { ...ITEM, sku: "id 9007199254740993" });
  assert.deepEqual(reply.checkedAt, { seconds: "1700000100", nanos: 0 });
  assert.deepEqual(reply.labels, {
    shelf: "B2",
    key: "itemId",
    shelves: "3,4",
    detail: "FULL",
    notBefore: "5",
  });
}

/**
 * Every message of the services as reflection describes it equals the same
 * message parsed from the .proto files (names, numbers, types, oneofs, maps),
 * so a flow reads the same fields whichever way the definition came.
 */
function sameAsParsed(reflected: PackageDefinition, packages: RegExp) {
  const parsed = servicesDefinition();
  const messages = Object.keys(parsed).filter((name) =>
    "format" in parsed[name] && packages.test(name)
  );
  assert.ok(messages.length >= 3, messages.join(", "));
  for (const name of messages) {
    assert.deepEqual(
      // deno-lint-ignore no-explicit-any
      (reflected[name] as any)?.type,
      // deno-lint-ignore no-explicit-any
      (parsed[name] as any).type,
      name,
    );
  }
}

Deno.test("reflection: the official service describes the atlas service and a service whose messages are imported", async () => {
  await withServer(servedOfficial(), async (server) => {
    const guide = await reflectedDefinition(server.target, "atlas.Atlas", insecure());
    const place = await call(guide, server.target, "atlas.Atlas", "GetPlace", {
      latitude: 405551234,
      longitude: -744442468,
    });
    assert.deepEqual(place, PLACE);
    assert.equal(
      guide["atlas.Atlas"] && "GetPlace" in guide["atlas.Atlas"],
      true,
    );
    const inventory = await reflectedDefinition(server.target, ".inventory.Inventory", insecure());
    await checkInventory(inventory, server.target);
    sameAsParsed(inventory, /^(inventory|google)\./);
    sameAsParsed(guide, /^atlas\./);
  });
});

Deno.test("reflection: a server answering as the spec does (protoc's files, one per answer) is asked for each import", async () => {
  await withServer(servedSpec(), async (server) => {
    const definition = await reflectedDefinition(server.target, "inventory.Inventory", insecure());
    await checkInventory(definition, server.target);
    sameAsParsed(definition, /^(inventory|google)\./);
    assert.deepEqual(server.asked.map((q) => q[q.messageRequest as string]), [
      "inventory.Inventory",
      "inventory/item.proto",
      "google/protobuf/timestamp.proto",
    ]);
    const guide = await reflectedDefinition(server.target, "atlas.Atlas", insecure());
    sameAsParsed(guide, /^atlas\./);
  });
});

Deno.test("reflection: a server offering only v1alpha is asked again in v1alpha", async () => {
  await withServer(servedOfficial({ versions: ["v1alpha"] }), async (server) => {
    const definition = await reflectedDefinition(
      server.target,
      "atlas.Atlas",
      insecure(),
    );
    const place = await call(definition, server.target, "atlas.Atlas", "GetPlace", {
      latitude: 1,
      longitude: 2,
    });
    assert.equal(place.name, PLACE.name);
  });
});

Deno.test("reflection: a server without it, an unknown service, a message's name: one sentence each", async () => {
  await withServer(servedOfficial({ versions: [] }), async (server) => {
    await rejects(
      reflectedDefinition(server.target, "atlas.Atlas", insecure()),
      "no-reflection",
      `The server at ${server.target} does not offer server reflection (UNIMPLEMENTED); ` +
        `name the .proto files with proto:.`,
    );
  });
  await withServer(servedOfficial(), async (server) => {
    const offers = "atlas.Atlas, inventory.Inventory, grpc.health.v1.Health";
    await rejects(
      reflectedDefinition(server.target, "atlas.Atla", insecure()),
      "unknown-symbol",
      `The server at ${server.target} knows no service "atlas.Atla"; it offers ${offers}.`,
    );
    // A name the server knows that is not a service says what it is.
    for (
      const [name, what] of [
        ["atlas.Point", "a message type"],
        ["inventory.common.Condition", "an enum"],
        ["atlas.Atlas.GetPlace", "a method"],
      ]
    ) {
      await rejects(
        reflectedDefinition(server.target, name, insecure()),
        "unknown-symbol",
        `The server at ${server.target} knows no service "${name}" (it is ${what}); ` +
          `it offers ${offers}.`,
      );
    }
  });
});

Deno.test("reflection: an unreachable server, a deadline, an abort", async () => {
  const gone = await servedOfficial();
  await gone.close();
  const error = await rejects(
    reflectedDefinition(gone.target, "atlas.Atlas", insecure()),
    "unreachable",
    /^The server at 127\.0\.0\.1:\d+ could not be reached for server reflection: .+\.$/,
  );
  assert.equal(error.reason, "network");
  await withServer(reflectionServer(() => undefined), async (server) => {
    const late = await rejects(
      reflectedDefinition(server.target, "atlas.Atlas", insecure({ deadlineMs: 300 })),
      "timeout",
      `The server at ${server.target} did not finish server reflection within 300 ms ` +
        `(DEADLINE_EXCEEDED).`,
    );
    assert.equal(late.reason, "timeout");
  });
  const abort = new AbortController();
  await withServer(
    reflectionServer(() => (abort.abort(), undefined)),
    async (server) => {
      // The deadline is far: only the abort ends the wait.
      const stopped = await rejects(
        reflectedDefinition(
          server.target,
          "atlas.Atlas",
          insecure({
            deadlineMs: 600_000,
            signal: abort.signal,
          }),
        ),
        "interrupted",
        `Server reflection at ${server.target} stopped because the run was interrupted.`,
      );
      assert.equal(stopped.reason, "interrupted");
    },
  );
});

Deno.test("reflection: garbage descriptors and answers of the wrong type are one sentence", async () => {
  const garbage = Buffer.from([0xff, 0xff, 0xff, 0xff]);
  await withServer(
    reflectionServer(() => ({ fileDescriptorResponse: { fileDescriptorProto: [garbage] } })),
    async (server) => {
      await rejects(
        reflectedDefinition(server.target, "atlas.Atlas", insecure()),
        "bad-descriptor",
        new RegExp(
          `^The server at ${server.target} answered server reflection for "atlas.Atlas" ` +
            `with a file descriptor that does not decode \\(.+\\)\\.$`,
        ),
      );
    },
  );
  await withServer(reflectionServer(() => garbage), async (server) => {
    await rejects(
      reflectedDefinition(server.target, "atlas.Atlas", insecure()),
      "reflection-failed",
      new RegExp(
        `^The server at ${server.target} answered server reflection with a message ` +
          `that is not a ServerReflectionResponse \\(.+\\)\\.$`,
      ),
    );
  });
});

/**
 * A file whose message nests `levels` messages in one another, far deeper
 * than any compiler allows, encoded by hand (protobufjs refuses to encode it).
 */
function deepFile(levels: number): Buffer {
  const varint = (n: number) => {
    const out = [];
    for (; n > 0x7f; n >>>= 7) out.push((n & 0x7f) | 0x80);
    return [...out, n];
  };
  const name = [0x0a, 1, 0x4e]; // DescriptorProto.name = "N"
  const sizes = [name.length];
  for (let i = 1; i < levels; i++) {
    sizes.push(name.length + 1 + varint(sizes[i - 1]).length + sizes[i - 1]);
  }
  const bytes: number[] = [0x0a, 10, ...new TextEncoder().encode("deep.proto")];
  bytes.push(0x22, ...varint(sizes[levels - 1])); // FileDescriptorProto.message_type
  for (let i = levels - 1; i > 0; i--) bytes.push(...name, 0x1a, ...varint(sizes[i - 1])); // nested_type
  bytes.push(...name);
  return Buffer.from(bytes);
}

Deno.test("reflection: descriptors that decode but do not make a definition are one sentence", async () => {
  // A field of a type no file defines.
  const dangling = fileBytes({
    name: "svc.proto",
    package: "svc",
    syntax: "proto3",
    messageType: [{
      name: "M",
      field: [{ name: "x", number: 1, label: 1, type: 11, typeName: ".nope.Gone" }],
    }],
    service: [{ name: "S", method: [{ name: "Get", inputType: ".svc.M", outputType: ".svc.M" }] }],
  });
  const nested = deepFile(20_000);
  for (
    const [file, words] of [[dangling, "do not make a definition"], [
      nested,
      "does not decode",
    ]] as const
  ) {
    await withServer(
      reflectionServer(() => ({ fileDescriptorResponse: { fileDescriptorProto: [file] } })),
      async (server) => {
        const error = await rejects(
          reflectedDefinition(server.target, "svc.S", insecure()),
          "bad-descriptor",
          new RegExp(`^The .+ ${words}.*\\.$`),
        );
        assert.ok(!error.message.includes("\n"), error.message);
      },
    );
  }
});

/** A server whose every file imports a next one, `pad` bytes each. */
function endless(pad = 0) {
  let n = 0;
  return reflectionServer(() => ({
    fileDescriptorResponse: {
      fileDescriptorProto: [
        fileBytes({
          name: `gen/${n}.proto`,
          package: "p".repeat(pad),
          dependency: [`gen/${++n}.proto`],
        }),
      ],
    },
  }));
}

Deno.test("reflection: a never-ending list of imports stops at the file bound, and the byte bound", async () => {
  await withServer(endless(), async (server) => {
    await rejects(
      reflectedDefinition(server.target, "svc.S", insecure({ maxFiles: 50 })),
      "too-many-files",
      `The server at ${server.target} sent more than 50 files for "svc.S" (its imports did not ` +
        `end); name the .proto files with proto:.`,
    );
    assert.equal(server.asked.length, 51, "one question per file, none after the bound");
  });
  const tooLarge = (target: string) =>
    `The server at ${target} sent more than 1048576 bytes of server reflection answers; ` +
    `raise the limit or name the .proto files with proto:.`;
  await withServer(endless(100_000), async (server) => {
    const error = await rejects(
      reflectedDefinition(server.target, "svc.S", insecure({ maxBytes: 1024 * 1024 })),
      "too-large",
      tooLarge(server.target),
    );
    assert.equal(error.reason, "body-too-large");
    assert.equal(
      server.asked.length,
      11,
      "ten answers of 100 kB fit in 1 MiB, the eleventh does not",
    );
  });
  // A server's own RESOURCE_EXHAUSTED (a quota) is its words, not the byte bound.
  await withServer(
    reflectionServer(() => new Ended(grpc.status.RESOURCE_EXHAUSTED, "quota exceeded")),
    async (server) => {
      await rejects(
        reflectedDefinition(server.target, "svc.S", insecure({ maxBytes: 1024 * 1024 })),
        "reflection-failed",
        `The server at ${server.target} ended server reflection with RESOURCE_EXHAUSTED: ` +
          `quota exceeded.`,
      );
    },
  );
  const huge = fileBytes({ name: "huge.proto", package: "p".repeat(3_000_000) });
  await withServer(
    reflectionServer(() => ({ fileDescriptorResponse: { fileDescriptorProto: [huge] } })),
    async (server) => {
      await rejects(
        reflectedDefinition(server.target, "svc.S", insecure({ maxBytes: 1024 * 1024 })),
        "too-large",
        tooLarge(server.target),
      );
    },
  );
});

Deno.test("reflection: an import the server does not send is named with the file importing it", async () => {
  const service = fileBytes({ name: "svc.proto", package: "svc", dependency: ["types.proto"] });
  await withServer(
    reflectionServer((q) =>
      q.messageRequest === "fileContainingSymbol"
        ? { fileDescriptorResponse: { fileDescriptorProto: [service] } }
        : { errorResponse: { errorCode: 5, errorMessage: "no such file" } }
    ),
    async (server) => {
      await rejects(
        reflectedDefinition(server.target, "svc.S", insecure()),
        "missing-file",
        `The server at ${server.target} does not send "types.proto", which "svc.proto" imports ` +
          `(NOT_FOUND: no such file).`,
      );
    },
  );
});

Deno.test("reflection: over TLS with the run's CA and a client certificate; a wrong CA is unreachable", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-reflection-" });
  try {
    const pem = await makeCertificates(dir);
    const tls = { cert: pem["server.pem"], key: pem["server.key"], clientCa: pem["ca.pem"] };
    await withServer(servedOfficial({ tls }), async (started) => {
      // By name: grpc-js names the host as TLS server name, which Deno's
      // node:tls refuses for an IP address ("options.servername must not be
      // an IP address"), so a TLS target must be a name under Deno.
      const server = { ...started, target: started.target.replace("127.0.0.1", "localhost") };
      const ca = Buffer.from(pem["ca.pem"]);
      const client = { key: Buffer.from(pem["client.key"]), cert: Buffer.from(pem["client.pem"]) };
      const credentials = grpc.credentials.createSsl(ca, client.key, client.cert);
      const definition = await reflectedDefinition(
        server.target,
        "atlas.Atlas",
        insecure({ credentials }),
      );
      assert.ok("GetPlace" in definition["atlas.Atlas"]);
      // The system's CAs do not know the test CA.
      await rejects(
        reflectedDefinition(
          server.target,
          "atlas.Atlas",
          insecure({
            credentials: grpc.credentials.createSsl(null, client.key, client.cert),
          }),
        ),
        "unreachable",
        new RegExp(
          `^The server at ${server.target} could not be reached for server reflection: .+`,
        ),
      );
      // Without the client certificate the server refuses the handshake.
      await rejects(
        reflectedDefinition(
          server.target,
          "atlas.Atlas",
          insecure({
            credentials: grpc.credentials.createSsl(ca),
          }),
        ),
        "unreachable",
        new RegExp(
          `^The server at ${server.target} could not be reached for server reflection: .+`,
        ),
      );
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("reflection: the metadata given is sent; a server refusing without it is one sentence", async () => {
  await withServer(servedOfficial({ authorization: "Bearer s3cret" }), async (server) => {
    await rejects(
      reflectedDefinition(server.target, "atlas.Atlas", insecure()),
      "reflection-failed",
      `The server at ${server.target} ended server reflection with UNAUTHENTICATED: ` +
        `a token is required.`,
    );
    const metadata = new grpc.Metadata();
    metadata.set("authorization", "Bearer s3cret");
    const definition = await reflectedDefinition(
      server.target,
      "atlas.Atlas",
      insecure({ metadata }),
    );
    assert.ok("GetPlace" in definition["atlas.Atlas"]);
    assert.deepEqual(server.asked.map((q) => q.authorization), [undefined, "Bearer s3cret"]);
  });
});

/** The fixture's .proto files parsed by protobufjs, as a flow's `proto:` files are. */
function parsedRoot(): protobuf.Root {
  const root = new protobuf.Root();
  // atlas.proto is named by its absolute path; the inventory files by their import names.
  root.resolvePath = (_origin, target) => target.startsWith("/") ? target : fixtures + target;
  root.loadSync([ATLAS_PROTO, "inventory/service.proto"], { keepCase: false });
  root.resolveAll();
  return root;
}

/**
 * What a type reads and writes: each field's name, number, list or map key,
 * the type it resolves to and its oneof, and the names nested in it (a type
 * named relatively or absolutely is the same type).
 */
function shape(type: protobuf.Type): unknown {
  return {
    fields: type.fieldsArray.map((f) => [
      f.name,
      f.id,
      f.repeated,
      f instanceof protobuf.MapField ? f.keyType : null,
      f.resolvedType ? f.resolvedType.fullName : f.type,
      f.partOf?.name ?? null,
    ]),
    nested: type.nestedArray.map((n) => n.name).sort(),
  };
}

Deno.test("reflection: reflectedRoot's types equal the same .proto files parsed by protobufjs", async () => {
  const parsed = parsedRoot();
  const names = [
    "inventory.LookupRequest",
    "inventory.LookupReply",
    "inventory.common.Item",
    "google.protobuf.Timestamp",
  ];
  for (const make of [servedOfficial, servedSpec]) {
    await withServer(make(), async (server) => {
      const root = await reflectedRoot(server.target, "inventory.Inventory", insecure());
      for (const name of names) {
        assert.deepEqual(shape(root.lookupType(name)), shape(parsed.lookupType(name)), name);
      }
      const service = root.lookupService("inventory.Inventory");
      assert.deepEqual(Object.keys(service.methods), ["Lookup"]);
    });
  }
});

Deno.test("reflection: on the call's own client, through its proxy tunnel, which stays open", async () => {
  const proxy = forwardProxy();
  try {
    await withServer(servedOfficial(), async (server) => {
      const client = new grpc.Client(new URL(proxy.url).host, grpc.credentials.createInsecure(), {
        "grpc.http_connect_target": `dns:///${server.target}`,
        "grpc.default_authority": server.target,
      });
      try {
        const options = insecure({ client });
        const definition = await reflectedDefinition(
          server.target,
          "atlas.Atlas",
          options,
        );
        assert.deepEqual(proxy.seen, [`CONNECT ${server.target}`]);
        const place = await new Promise((resolve, reject) => {
          const service = definition["atlas.Atlas"] as grpc.ServiceDefinition;
          const method = service.GetPlace;
          client.makeUnaryRequest(
            method.path,
            method.requestSerialize,
            method.responseDeserialize,
            { latitude: 1, longitude: 2 },
            (error, answer) => error ? reject(error) : resolve(answer),
          );
        });
        assert.deepEqual(place, PLACE);
        assert.deepEqual(
          proxy.seen,
          [`CONNECT ${server.target}`],
          "the same tunnel served the call",
        );
      } finally {
        client.close();
      }
    });
  } finally {
    proxy.close();
  }
});

/** A flow of one reflected Lookup at `target`, with the metadata `token` when given. */
function lookupFlow(target: string, service = "inventory.Inventory") {
  return `name: reflected inventory
steps:
  - name: lookup
    grpc:
      target: "${target}"
      method: ${service}/Lookup
      message: { itemId: "12", shelfNumbers: [3, 4], detailLevel: FULL }
      metadata: { authorization: "Bearer \${ENV.SHOP_TOKEN}" }
    assert:
      status: 0
      json:
        - { path: $.json.item.count, equals: "9007199254740993" }
        - { path: $.json.item.condition, equals: USED }
        - { path: $.json.item.tag, equals: dGFn }
        - { path: $.json.item.restockedAt, exists: true }
        - { path: $.json.labels.shelf, equals: B2 }
        - { path: $.json.labels.key, equals: itemId }
        - { path: $.json.labels.shelves, equals: "3,4" }
`;
}

Deno.test("reflection: flowrun run calls a reflected method of both servers, with the step's metadata, masked", async () => {
  const token = "rfl-7a1c9e";
  const dir = await Deno.makeTempDir({ prefix: "flowrun-reflection-" });
  try {
    for (const started of [servedOfficial({ authorization: `Bearer ${token}` }), servedSpec()]) {
      await withServer(started, async (server) => {
        await Deno.writeTextFile(`${dir}/flow.yaml`, lookupFlow(server.target));
        const run = await runCli(["run", "flow.yaml", "--report-json", "out.json"], {
          cwd: dir,
          env: { SHOP_TOKEN: token },
        });
        assert.equal(run.code, 0, run.stdout + run.stderr);
        const report = await Deno.readTextFile(`${dir}/out.json`);
        const step = JSON.parse(report).flows[0].steps[0];
        assert.equal(step.status, "passed");
        assert.equal(step.request.method, "GRPC");
        assert.equal(step.request.url, `grpc://${server.target}/inventory.Inventory/Lookup`);
        for (const text of [run.stdout, run.stderr, report]) assert.ok(!text.includes(token));
        // The official server wants the token for reflection too: it got it.
        const seen = server.asked.map((q) => q.authorization ?? null);
        assert.ok(seen.every((a) => a === null || a === `Bearer ${token}`), String(seen));
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("reflection: flowrun run reports an unknown service in reflection's sentence", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-reflection-" });
  try {
    await withServer(servedOfficial(), async (server) => {
      await Deno.writeTextFile(
        `${dir}/flow.yaml`,
        lookupFlow(server.target, "inventory.Inventroy"),
      );
      const run = await runCli(["run", "flow.yaml", "--report-json", "out.json"], {
        cwd: dir,
        env: { SHOP_TOKEN: "x" },
      });
      assert.equal(run.code, 1, run.stdout + run.stderr);
      const sentence = `The server at ${server.target} knows no service "inventory.Inventroy"; ` +
        `it offers atlas.Atlas, inventory.Inventory, grpc.health.v1.Health.`;
      assert.ok(run.stdout.includes(sentence), run.stdout);
      const step = JSON.parse(await Deno.readTextFile(`${dir}/out.json`)).flows[0].steps[0];
      assert.equal(step.status, "error");
      assert.equal(step.message, sentence);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
