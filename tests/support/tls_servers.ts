/**
 * HTTPS servers on 127.0.0.1 (a free port) with the material of
 * `makeCertificates` (./tls.ts): one whose certificate the private
 * CA signed, and one that also requires a client certificate the CA signed
 * (mutual TLS) and tells its handler whose it was.
 *
 * @module
 */
import https from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * An HTTPS server of Deno's on 127.0.0.1 with the server certificate in
 * `pem`, answering with `handler`; the caller shuts it down.
 *
 * @example
 * ```ts
 * import { hasOpenssl, makeCertificates } from "./tls.ts";
 * import { httpsServe } from "./tls_servers.ts";
 * if (hasOpenssl()) {
 *   const dir = await Deno.makeTempDir();
 *   const pem = await makeCertificates(dir);
 *   const server = httpsServe(pem, () => new Response("over tls"));
 *   const client = Deno.createHttpClient({ caCerts: [pem["ca.pem"]] });
 *   const res = await fetch(`https://127.0.0.1:${server.addr.port}/`, { client });
 *   if (await res.text() !== "over tls") throw new Error();
 *   client.close();
 *   await server.shutdown();
 *   await Deno.remove(dir, { recursive: true });
 * }
 * ```
 */
export function httpsServe(
  pem: Record<string, string>,
  handler: Deno.ServeHandler,
): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    cert: pem["server.pem"],
    key: pem["server.key"],
    onListen() {},
  }, handler);
}

/**
 * A Node HTTPS server on 127.0.0.1 that refuses a client without a
 * certificate the CA in `pem` signed, and gives `answer` the client's
 * common name with each request. Node's, since Deno's server does not ask
 * for a client certificate.
 *
 * @example
 * ```ts
 * import { hasOpenssl, makeCertificates } from "./tls.ts";
 * import { mutualTlsServer } from "./tls_servers.ts";
 * if (hasOpenssl()) {
 *   const dir = await Deno.makeTempDir();
 *   const pem = await makeCertificates(dir);
 *   const server = await mutualTlsServer(pem, (client, _req, res) => res.end(`hello ${client}`));
 *   const client = Deno.createHttpClient({
 *     caCerts: [pem["ca.pem"]],
 *     cert: pem["client.pem"],
 *     key: pem["client.key"],
 *   });
 *   const greeting = await (await fetch(server.url, { client })).text();
 *   if (!greeting.startsWith("hello ") || greeting === "hello null") throw new Error(greeting);
 *   client.close();
 *   await server.close();
 *   await Deno.remove(dir, { recursive: true });
 * }
 * ```
 */
export async function mutualTlsServer(
  pem: Record<string, string>,
  answer: (client: string | null, req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = https.createServer({
    cert: pem["server.pem"],
    key: pem["server.key"],
    ca: pem["ca.pem"],
    requestCert: true,
    rejectUnauthorized: true,
  }, (req, res) => {
    // deno-lint-ignore no-explicit-any
    const peer = (req.socket as any).getPeerCertificate?.();
    answer(peer?.subject?.CN ?? null, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `https://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
