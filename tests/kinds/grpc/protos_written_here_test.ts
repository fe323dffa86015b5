/**
 * The gRPC fixtures' protocol files are written here, yet a server built by
 * others must understand them: every message, field (number, type, label,
 * oneof), enum value and method of our health.proto and reflection_v1.proto
 * equals what the packages the tests run against ship (grpc-health-check's
 * and @grpc/reflection's own files, read from the npm cache at test time).
 * And no fixture .proto carries a licence header or the copied service's names.
 */
import assert from "node:assert/strict";
import protobuf from "protobufjs";
import { protoPath as shippedHealth } from "grpc-health-check";
// Imported so the package is fetched into the npm cache its .proto file is read from.
import "@grpc/reflection";

const FIXTURES = new URL("../../fixtures/", import.meta.url);
const OURS_HEALTH = new URL("grpc/protos/health.proto", FIXTURES).pathname;
const OURS_REFLECTION = new URL("grpc_reflection/reflection_v1.proto", FIXTURES).pathname;
const SHIPPED_REFLECTION = new URL(
  "../proto/grpc/reflection/v1/reflection.proto",
  import.meta.resolve("@grpc/reflection"),
).pathname;

type Described = Record<string, unknown>;

/** What a message says on the wire: each field's number, type, label and oneof. */
function message(type: protobuf.Type): Described {
  const fields: Described = {};
  for (const f of type.fieldsArray) {
    fields[f.name] = {
      id: f.id,
      type: f.resolvedType?.fullName ?? f.type,
      repeated: f.repeated,
      map: f instanceof protobuf.MapField ? f.keyType : undefined,
      oneof: f.partOf?.name,
    };
  }
  return { fields };
}

function method(m: protobuf.Method): Described {
  return {
    request: m.resolvedRequestType?.fullName,
    response: m.resolvedResponseType?.fullName,
    requestStream: Boolean(m.requestStream),
    responseStream: Boolean(m.responseStream),
  };
}

/** Every message, enum and service of the file at `path`, by full name. */
function describe(path: string): Map<string, Described> {
  const root = new protobuf.Root().loadSync(path, { keepCase: true });
  root.resolveAll();
  const out = new Map<string, Described>();
  const walk = (ns: protobuf.NamespaceBase) => {
    for (const item of ns.nestedArray) {
      if (item instanceof protobuf.Type) out.set(item.fullName, message(item));
      else if (item instanceof protobuf.Enum) out.set(item.fullName, { values: item.values });
      else if (item instanceof protobuf.Service) {
        const methods: Described = {};
        for (const m of item.methodsArray) methods[m.name] = method(m);
        out.set(item.fullName, { methods });
      }
      if (item instanceof protobuf.Namespace) walk(item);
    }
  };
  walk(root);
  return out;
}

Deno.test("our health.proto says on the wire what grpc-health-check's says, for Check and Watch", () => {
  const ours = describe(OURS_HEALTH);
  const shipped = describe(shippedHealth);
  const service = ours.get(".grpc.health.v1.Health") as { methods: Described };
  assert.deepEqual(Object.keys(service.methods).sort(), ["Check", "Watch"]);
  for (const name of ["Check", "Watch"]) {
    const theirs = (shipped.get(".grpc.health.v1.Health") as { methods: Described }).methods;
    assert.deepEqual(service.methods[name], theirs[name], name);
  }
  const types = [...ours.keys()].filter((k) => k !== ".grpc.health.v1.Health");
  assert.deepEqual(types.sort(), [
    ".grpc.health.v1.HealthCheckRequest",
    ".grpc.health.v1.HealthCheckResponse",
    ".grpc.health.v1.HealthCheckResponse.ServingStatus",
  ]);
  for (const name of types) assert.deepEqual(ours.get(name), shipped.get(name), name);
  assert.deepEqual(ours.get(".grpc.health.v1.HealthCheckResponse.ServingStatus"), {
    values: { UNKNOWN: 0, SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3 },
  });
});

Deno.test("our reflection_v1.proto says on the wire exactly what @grpc/reflection's v1 file says", () => {
  const ours = describe(OURS_REFLECTION);
  const shipped = describe(SHIPPED_REFLECTION);
  assert.deepEqual([...ours.keys()].sort(), [...shipped.keys()].sort());
  for (const [name, described] of ours) assert.deepEqual(described, shipped.get(name), name);
});

Deno.test("no fixture .proto carries a licence header or the copied example's names", async () => {
  const seen: string[] = [];
  const visit = async (dir: URL) => {
    for await (const entry of Deno.readDir(dir)) {
      const url = new URL(entry.isDirectory ? `${entry.name}/` : entry.name, dir);
      if (entry.isDirectory) await visit(url);
      else if (entry.name.endsWith(".proto")) {
        seen.push(entry.name);
        const text = await Deno.readTextFile(url);
        assert.doesNotMatch(text, /copyright|licen[cs]e|all rights reserved/i, url.pathname);
        assert.doesNotMatch(text, /routeguide|route_guide|RouteNote|RouteSummary/i, url.pathname);
      }
    }
  };
  await visit(new URL("grpc/", FIXTURES));
  await visit(new URL("grpc_reflection/", FIXTURES));
  for (const name of ["atlas.proto", "health.proto", "reflection_v1.proto", "mirror.proto"]) {
    assert.ok(seen.includes(name), `${name} was read: ${seen}`);
  }
});
