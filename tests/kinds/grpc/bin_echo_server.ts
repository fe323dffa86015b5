/**
 * A grpc-js atlas server, started here, whose GetPlace echoes every `-bin`
 * metadata it got in its trailers: a check of the echoed trailer passes only
 * when the bytes arrived, and `got` says which bytes did.
 */
import * as grpc from "@grpc/grpc-js";
import * as loader from "@grpc/proto-loader";

const PROTO = new URL("../../fixtures/grpc/protos/atlas.proto", import.meta.url).pathname;

/** An atlas server whose GetPlace echoes every `-bin` metadata as a trailer; the bytes it got. */
export async function echoServer(): Promise<{ port: number; got: string[]; close(): void }> {
  // deno-lint-ignore no-explicit-any
  const pkg = grpc.loadPackageDefinition(loader.loadSync(PROTO)) as any;
  const got: string[] = [];
  const server = new grpc.Server();
  server.addService(pkg.atlas.Atlas.service, {
    // deno-lint-ignore no-explicit-any
    GetPlace(call: any, callback: any) {
      const trailers = new grpc.Metadata();
      for (const [name, value] of Object.entries(call.metadata.getMap())) {
        if (!name.endsWith("-bin")) continue;
        got.push(`${name} ${[...(value as Buffer)].join(",")}`);
        trailers.set(name, value as Buffer);
      }
      callback(null, { name: "here", location: call.request }, trailers);
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(
      "127.0.0.1:0",
      grpc.ServerCredentials.createInsecure(),
      (e, p) => e ? reject(e) : resolve(p),
    )
  );
  return { port, got, close: () => server.forceShutdown() };
}
