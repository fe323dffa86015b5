/**
 * An atlas server's GetPlace over TLS for the export's TLS tests
 * (tests/export/processor_tls_test.ts, artillery_tls_test.ts), on 127.0.0.1
 * with an ephemeral port.
 */
import { Buffer } from "node:buffer";
import * as grpc from "@grpc/grpc-js";
import * as loader from "@grpc/proto-loader";

const PROTO = new URL("../fixtures/grpc/protos/atlas.proto", import.meta.url).pathname;

const PLACE = {
  name: "Cedar Marsh Boardwalk and Heron Hide, Ardent Vale, east 14",
  location: { latitude: 405551234, longitude: -744442468 },
};

/**
 * An atlas server's GetPlace over TLS with `tls` as its certificate, asking
 * for a client certificate `ca` signed when `mutual`. Its own, not
 * tests/fixtures/grpc's: grpc-js's TLS server under Deno answers without
 * TLS when given no CA (the handshake fails with "wrong version number"),
 * so the CA is always given and the client's certificate asked for or not.
 */
export async function startTlsGuide(
  tls: { cert: string; key: string },
  ca: string,
  mutual: boolean,
) {
  const definition = loader.loadSync(PROTO);
  // deno-lint-ignore no-explicit-any
  const atlas = (grpc.loadPackageDefinition(definition) as any).atlas;
  const server = new grpc.Server();
  server.addService(atlas.Atlas.service, {
    GetPlace: (_call: unknown, done: grpc.sendUnaryData<unknown>) => done(null, PLACE),
  });
  const keys = [{ private_key: Buffer.from(tls.key), cert_chain: Buffer.from(tls.cert) }];
  const credentials = grpc.ServerCredentials.createSsl(Buffer.from(ca), keys, mutual);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", credentials, (e, p) => e ? reject(e) : resolve(p))
  );
  return { port, close: () => Promise.resolve(server.forceShutdown()) };
}
