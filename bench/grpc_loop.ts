/**
 * The plain grpc-js client loop and the atlas server in a process of its
 * own, shared by bench/grpc.ts (the kind's cost over the loop) and
 * bench/grpc_connect.ts (grpc-js beside Connect).
 *
 * @module
 */
import { root } from "./support.ts";

/** The atlas server (tests/fixtures/grpc/atlas_server.ts) in a process of its own; its port. */
export async function startGrpcProcess(): Promise<{ port: number; process: Deno.ChildProcess }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${root}tests/fixtures/grpc/atlas_server.ts`],
    stdout: "piped",
  }).spawn();
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  await child.stdout.cancel();
  return { port: Number(new TextDecoder().decode(value).trim()), process: child };
}

/**
 * A grpc-js client of proto-loader's definition: `n` `GetPlace` calls
 * one after the other with a deadline each, every response's field read.
 */
export async function grpcLoop(port: number): Promise<(n: number) => Promise<number>> {
  const grpc = await import("@grpc/grpc-js");
  const loader = await import("@grpc/proto-loader");
  const def = loader.loadSync(`${root}tests/fixtures/grpc/protos/atlas.proto`, {
    longs: String,
    enums: String,
    bytes: String,
    defaults: true,
    oneofs: true,
  });
  // deno-lint-ignore no-explicit-any
  const Client = (grpc.loadPackageDefinition(def) as any).atlas.Atlas;
  const client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const point = { latitude: 405551234, longitude: -744442468 };
  const call = () =>
    new Promise<{ location: { latitude: number } }>((resolve, reject) =>
      client.GetPlace(
        point,
        { deadline: Date.now() + 30_000 },
        (e: Error | null, v: { location: { latitude: number } }) => e ? reject(e) : resolve(v),
      )
    );
  return async (n) => {
    for (let i = 0; i < n; i++) {
      if ((await call()).location.latitude !== point.latitude) throw new Error("wrong place");
    }
    return n;
  };
}
