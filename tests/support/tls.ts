/**
 * TLS material and a forward proxy for tests, made at test time: a private
 * CA, a server certificate for 127.0.0.1 and localhost, a client
 * certificate (X.509 v3, as rustls requires), all with `openssl`; and a
 * small HTTP proxy (absolute-form requests and CONNECT tunnels) that
 * records what passed through it.
 */

/** Whether `openssl` can be run here. */
export function hasOpenssl(): boolean {
  try {
    new Deno.Command("openssl", { args: ["version"], stdout: "null", stderr: "null" }).outputSync();
    return true;
  } catch {
    return false;
  }
}

async function openssl(dir: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("openssl", { args, cwd: dir, stdout: "null", stderr: "piped" })
    .output();
  if (!out.success) throw new Error(`openssl ${args[0]}: ${new TextDecoder().decode(out.stderr)}`);
}

/** A self-signed certificate `name.pem` and its key `name.key` (a CA, or a lone server's). */
async function selfSigned(dir: string, name: string, cn: string): Promise<void> {
  await openssl(
    dir,
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    `${name}.key`,
    "-out",
    `${name}.pem`,
    "-days",
    "2",
    "-subj",
    `/CN=${cn}`,
  );
}

/**
 * A private CA with a server and a client certificate, and a self-signed
 * certificate for another name, as PEM files in `dir`.
 */
export async function makeCertificates(dir: string): Promise<Record<string, string>> {
  // RSA keys take a while to make: one set per test process, copied into each test's folder.
  made ??= (async () => {
    const work = await Deno.makeTempDir({ prefix: "flowrun-certs-" });
    try {
      return await generate(work);
    } finally {
      await Deno.remove(work, { recursive: true });
    }
  })();
  const files = await made;
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
  return files;
}

let made: Promise<Record<string, string>> | undefined;

async function generate(dir: string): Promise<Record<string, string>> {
  const subject = (cn: string) => ["-subj", `/CN=${cn}`];
  await selfSigned(dir, "ca", "flowrun test CA");
  for (
    const [name, ext] of [
      ["server", "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n"],
      ["client", "basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n"],
    ]
  ) {
    await Deno.writeTextFile(`${dir}/${name}.ext`, ext);
    await openssl(
      dir,
      "req",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      `${name}.key`,
      "-out",
      `${name}.csr`,
      ...subject(`flowrun ${name}`),
    );
    await openssl(
      dir,
      "x509",
      "-req",
      "-in",
      `${name}.csr`,
      "-CA",
      "ca.pem",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-out",
      `${name}.pem`,
      "-days",
      "2",
      "-extfile",
      `${name}.ext`,
    );
  }
  // Self-signed, for a name that is not the test server's: what --insecure is for.
  await selfSigned(dir, "self", "dev.example");
  const files: Record<string, string> = {};
  for (
    const f of [
      "ca.pem",
      "server.pem",
      "server.key",
      "client.pem",
      "client.key",
      "self.pem",
      "self.key",
    ]
  ) {
    files[f] = await Deno.readTextFile(`${dir}/${f}`);
  }
  return files;
}

/** A forward proxy on 127.0.0.1: what it was asked for, and how to stop it. */
export function forwardProxy(): { url: string; seen: string[]; close: () => void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const seen: string[] = [];
  const conns = new Set<Deno.Conn>();
  (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      handle(conn, seen).catch(() => {}).finally(() => {
        conns.delete(conn);
        try {
          conn.close();
        } catch {
          // Already closed by the other side.
        }
      });
    }
  })().catch(() => {});
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    seen,
    close: () => {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch {
          // Already closed.
        }
      }
    },
  };
}

async function handle(conn: Deno.Conn, seen: string[]): Promise<void> {
  // Read the request head.
  let head = new Uint8Array(0);
  const buf = new Uint8Array(16 * 1024);
  let end = -1;
  while (end < 0) {
    const n = await conn.read(buf);
    if (n === null) return;
    const next = new Uint8Array(head.length + n);
    next.set(head);
    next.set(buf.subarray(0, n), head.length);
    head = next;
    end = new TextDecoder().decode(head).indexOf("\r\n\r\n");
  }
  const text = new TextDecoder().decode(head);
  const [line] = text.split("\r\n");
  const [method, target] = line.split(" ");
  seen.push(`${method} ${target}`);
  if (method === "CONNECT") {
    const [hostname, port] = target.split(":");
    const upstream = await Deno.connect({ hostname, port: Number(port) });
    await conn.write(new TextEncoder().encode("HTTP/1.1 200 Connection Established\r\n\r\n"));
    await Promise.all([pipe(conn, upstream), pipe(upstream, conn)]);
    upstream.close();
    return;
  }
  // Absolute-form: forward to the origin as origin-form, one request per connection.
  const url = new URL(target);
  const upstream = await Deno.connect({ hostname: url.hostname, port: Number(url.port || 80) });
  const rest = text.slice(line.length).replace(/\r\nconnection:[^\r]*/gi, "");
  await upstream.write(
    new TextEncoder().encode(
      `${method} ${url.pathname}${url.search} HTTP/1.1${
        rest.replace(/\r\n\r\n[^]*$/, "")
      }\r\nconnection: close\r\n\r\n`,
    ),
  );
  const body = head.subarray(end + 4);
  if (body.length > 0) await upstream.write(body);
  await pipe(upstream, conn);
  upstream.close();
}

async function pipe(from: Deno.Conn, to: Deno.Conn): Promise<void> {
  const buf = new Uint8Array(16 * 1024);
  try {
    for (;;) {
      const n = await from.read(buf);
      if (n === null) break;
      await to.write(buf.subarray(0, n));
    }
  } catch {
    // One side closed: the tunnel ends.
  }
  try {
    await (to as Deno.TcpConn).closeWrite();
  } catch {
    // Already closed.
  }
}
