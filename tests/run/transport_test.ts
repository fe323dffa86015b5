import assert from "node:assert/strict";
import { transportFor } from "../../lib/run/transport.ts";
import type { Context } from "../../lib/run/context.ts";

function ctx(network?: Context["network"], env: Record<string, string> = {}) {
  const secrets: string[] = [];
  return {
    secrets,
    ctx: { network, env: (name: string) => env[name], secret: (v: string) => void secrets.push(v) },
  };
}

Deno.test("without network settings a request takes the runtime's default client", () => {
  assert.deepEqual(transportFor("https://a.test/", undefined, ctx().ctx), {});
  assert.deepEqual(transportFor("https://a.test/", { timeoutMs: 5 }, ctx().ctx), {});
});

Deno.test("an insecure request reads the proxy variables itself, NO_PROXY included", () => {
  const { ctx: c } = ctx({ insecure: true }, {
    HTTPS_PROXY: "http://proxy.test:3128",
    NO_PROXY: "internal.test, .corp.test",
  });
  assert.deepEqual(transportFor("https://a.test/", undefined, c), {
    insecure: { proxy: "http://proxy.test:3128" },
  });
  assert.deepEqual(transportFor("https://x.corp.test/", undefined, c), { insecure: {} });
  assert.deepEqual(transportFor("https://internal.test/", undefined, c), { insecure: {} });
});

Deno.test("a flow's proxy password is registered as a secret", () => {
  const { ctx: c, secrets } = ctx();
  transportFor("https://a.test/", { insecure: true, proxy: "http://u:pa55@proxy.test:3128" }, c);
  assert.ok(secrets.includes("pa55"), secrets.join());
});

Deno.test("a host in no_proxy skips the proxy; with nothing else set, no client is made", () => {
  const { ctx: c } = ctx({ proxy: "http://proxy.test:3128", noProxy: ["a.test"] });
  assert.deepEqual(transportFor("https://a.test/", undefined, c), {});
  assert.ok("client" in transportFor("https://b.test/", undefined, c));
});
