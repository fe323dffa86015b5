/**
 * `deno run -A bench/grpc_connect.ts [calls] [rounds]`: issue 55 asked for
 * `@grpc/grpc-js` "or the Buf/Connect stack if it serves Deno better:
 * measure and say why". The same unary `GetPlace` loop, one call after
 * the other with a deadline each and the answer's field read, made by
 * grpc-js (bench/grpc.ts's `grpc-loop`) and by Connect's gRPC transport
 * for Node (`@connectrpc/connect-node` over `node:http2`, messages by
 * `@bufbuild/protobuf`), against the same atlas server in a process of its
 * own (tests/fixtures/grpc/atlas_server.ts). Connect needs generated
 * code or a descriptor: the descriptor is made at run time from the same
 * `.proto` file by protobufjs (which flowrun already has), as flowrun
 * would have to for a `.proto` named in a flow.
 *
 * One process warms both up, then runs `rounds` (default 3) rounds, each
 * client making `calls` (default 2,000) calls in turn, and reads its own
 * CPU time and V8's allocated bytes around each; medians are printed.
 * Run by hand, never in CI (the Connect packages are pinned here, for this
 * file alone: nothing a user downloads imports them); results go to
 * docs/performance-log.md.
 */
import process from "node:process";
import v8 from "node:v8";
// deno-lint-ignore no-import-prefix -- bench-only, kept out of deno.json's imports (what users get)
import { createClient } from "npm:@connectrpc/connect@2.3.0";
// deno-lint-ignore no-import-prefix -- bench-only
import { createGrpcTransport } from "npm:@connectrpc/connect-node@2.3.0";
// deno-lint-ignore no-import-prefix -- bench-only
import { createFileRegistry, fromBinary } from "npm:@bufbuild/protobuf@2.17.0";
// deno-lint-ignore no-import-prefix -- bench-only
import { FileDescriptorSetSchema } from "npm:@bufbuild/protobuf@2.17.0/wkt";
import { median, root } from "./support.ts";
import { grpcLoop, startGrpcProcess } from "./grpc_loop.ts";

const PROTO = `${root}tests/fixtures/grpc/protos/atlas.proto`;
const POINT = { latitude: 405551234, longitude: -744442468 };
const WARM = 500;

type Work = (n: number) => Promise<number>;

/** Connect's loop: a gRPC transport over HTTP/2, one `getPlace` after the other. */
async function connectLoop(port: number): Promise<Work> {
  const protobuf = (await import("protobufjs")).default;
  // protobufjs's descriptor extension turns the parsed .proto into a FileDescriptorSet.
  const descriptor = (await import("protobufjs/ext/descriptor/index.js")).default;
  const root = await new protobuf.Root().load(PROTO, { keepCase: true });
  // deno-lint-ignore no-explicit-any
  const set = (root as any).toDescriptor("proto3");
  // protobufjs names types relative to the package ("Point"); descriptors want ".atlas.Point".
  const full = (pkg: string, name?: string) =>
    name && !name.startsWith(".") ? `.${pkg}.${name}` : name;
  // deno-lint-ignore no-explicit-any
  for (const file of set.file as any[]) {
    for (const message of file.messageType ?? []) {
      for (const field of message.field ?? []) field.typeName = full(file.package, field.typeName);
    }
    for (
      const method of (file.service ?? []).flatMap((s: { method?: unknown[] }) => s.method ?? [])
    ) {
      method.inputType = full(file.package, method.inputType);
      method.outputType = full(file.package, method.outputType);
    }
  }
  const bytes = descriptor.FileDescriptorSet.encode(set).finish();
  const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, bytes));
  const service = registry.getService("atlas.Atlas");
  if (!service) throw new Error("atlas.Atlas is not in the descriptor");
  const transport = createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}` });
  // deno-lint-ignore no-explicit-any
  const client = createClient(service, transport) as any;
  return async (n) => {
    for (let i = 0; i < n; i++) {
      const place = await client.getPlace(POINT, { timeoutMs: 30_000 });
      if (place.location.latitude !== POINT.latitude) throw new Error("wrong place");
    }
    return n;
  };
}

/** The bytes V8 has allocated in this process so far. */
function allocatedBytes(): number {
  return (v8.getHeapStatistics() as unknown as { total_allocated_bytes: number })
    .total_allocated_bytes;
}

async function main(): Promise<void> {
  const calls = Number(Deno.args[0] ?? 2000);
  const rounds = Number(Deno.args[1] ?? 3);
  const server = await startGrpcProcess();
  try {
    const works: [string, Work][] = [
      ["grpc-js", await grpcLoop(server.port)],
      ["connect-node", await connectLoop(server.port)],
    ];
    for (const [, work] of works) await work(WARM);
    const samples = new Map(works.map(([name]) => [name, { cpu: [0], wall: [0], bytes: [0] }]));
    for (const s of samples.values()) s.cpu = s.wall = s.bytes = [];
    for (let round = 0; round < rounds; round++) {
      for (const [name, work] of works) {
        const s = samples.get(name)!;
        const [cpu, bytes, wall] = [process.cpuUsage(), allocatedBytes(), performance.now()];
        await work(calls);
        const used = process.cpuUsage(cpu);
        s.wall = [...s.wall, (performance.now() - wall) / calls];
        s.cpu = [...s.cpu, (used.user + used.system) / 1000 / calls];
        s.bytes = [...s.bytes, (allocatedBytes() - bytes) / calls / 1024];
      }
    }
    console.log(
      `${calls} calls per client and round, medians of ${rounds}, Deno ${Deno.version.deno}`,
    );
    console.log("| client | CPU per call | wall per call | allocated per call | CPU ratio |");
    console.log("| --- | --- | --- | --- | --- |");
    const base = median(samples.get("grpc-js")!.cpu);
    for (const [name, s] of samples) {
      console.log(
        `| ${name} | ${median(s.cpu).toFixed(3)} ms | ${median(s.wall).toFixed(3)} ms | ` +
          `${median(s.bytes).toFixed(1)} KiB | ${(median(s.cpu) / base).toFixed(2)}× |`,
      );
    }
  } finally {
    server.process.kill("SIGTERM");
    await server.process.status;
  }
  Deno.exit(0);
}

await main();
