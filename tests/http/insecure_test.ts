import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { insecureFetch } from "../../lib/http/insecure.ts";

/** Serves `handler` on 127.0.0.1, port 0, for the duration of `body`. */
async function withServer(
  handler: (request: Request) => Response | Promise<Response>,
  body: (url: string) => Promise<void>,
): Promise<void> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  try {
    await body(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

Deno.test("the insecure transport sends method, headers and body, and keeps repeated headers", async () => {
  await withServer(async (request) => {
    const headers = new Headers({ "x-echo": `${request.method} ${await request.text()}` });
    headers.append("set-cookie", "a=1");
    headers.append("set-cookie", "b=2");
    return new Response("ok", { status: 201, headers });
  }, async (url) => {
    const response = await insecureFetch(
      new Request(`${url}/x`, { method: "POST", body: "hi", headers: { "x-a": "1" } }),
      {},
    );
    assert.equal(response.status, 201);
    assert.equal(response.url, `${url}/x`);
    assert.equal(response.headers.get("x-echo"), "POST hi");
    assert.deepEqual(response.headers.getSetCookie(), ["a=1", "b=2"]);
    assert.equal(await response.text(), "ok");
  });
});

Deno.test("a compressed body is decompressed as fetch does", async () => {
  await withServer(
    () =>
      new Response(new Uint8Array(gzipSync("zipped")), { headers: { "content-encoding": "gzip" } }),
    async (url) => {
      const response = await insecureFetch(new Request(url), {});
      assert.equal(await response.text(), "zipped");
    },
  );
});

Deno.test("a proxy that is not http:// is refused with what to use instead", async () => {
  await assert.rejects(
    () => insecureFetch(new Request("https://a.test/"), { proxy: "socks5://p.test:1080" }),
    /--insecure reaches servers through http:\/\/ proxies only, not "socks5:\/\/"/,
  );
});
