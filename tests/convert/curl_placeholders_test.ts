/**
 * `convertCurl`: API docs generated from one template write the server's
 * address and the path's parameters as placeholders the reader fills in:
 * `<unleash-url>/api/admin/projects/:projectId/features`, beside
 * `-H "Authorization: <API-token>"`. Read as the shell reads it the URL was
 * no URL, and the whole text was refused ("No curl command in the input
 * sends an http(s) request"). A `<name>` that starts a URL is the base URL
 * to set (as `$APISERVER` is), and a `:name` or `<name>` segment of its path
 * a value to set, one variable per name however it is spelled
 * (`:project-id` and `:projectId`). Commands written here in that shape.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const command = (verb: string, path: string, body?: string) =>
  `curl -H "Content-Type: application/json" \\
     -H "Authorization: <API-token>" \\
     -X ${verb} \\${body ? `\n     -d '${body}' \\` : ""}
     <shop-url>/${path}`;

const TEXT = [
  command("GET", "api/admin/shops/:shop-id"),
  command("POST", "api/admin/shops/:shopId/items", '{\n  "name": "my-item"\n}'),
  command("GET", "api/admin/shops/:shopId/orders/<orderName>"),
].join("\n\n") + "\n";

Deno.test("a placeholder URL's address is the base URL, its path's placeholders values to set", () => {
  const { yaml, summary } = convertCurl(TEXT);
  assert.equal(summary.steps, 3, yaml);
  assert.deepEqual([...summary.env].sort(), ["API_TOKEN", "ORDER_NAME", "SHOP_ID", "SHOP_URL"]);
  assert.match(yaml, /base_url: \$\{ENV\.SHOP_URL\}/, yaml);
  assert.match(yaml, /url: \$\{vars\.base_url\}\/api\/admin\/shops\/\$\{ENV\.SHOP_ID\}\n/, yaml);
  assert.match(yaml, /\/orders\/\$\{ENV\.ORDER_NAME\}\n/, yaml);
  assert.match(yaml, /SHOP_URL +written as <shop-url> in the command/, yaml);
  assert.match(yaml, /SHOP_ID +written as :shop-id in the command/, yaml);
});

Deno.test("angle brackets that are no placeholder of a URL are left as they are", () => {
  const { yaml } = convertCurl(
    `curl -X POST http://localhost:9000/notes -H 'Content-Type: text/xml' -d '<note>/x</note>'\n`,
  );
  assert.match(yaml, /<note>\/x<\/note>/, yaml);
  const port = convertCurl(`curl http://localhost:9000/items/:id/time\n`);
  assert.match(port.yaml, /items\/\$\{ENV\.ID\}\/time/, port.yaml);
});

Deno.test("the flow reaches the server once its placeholders are set", async () => {
  const seen: string[] = [];
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(`${req.method} ${new URL(req.url).pathname} ${req.headers.get("authorization")}`);
    return Response.json({ ok: true });
  });
  await withCurlFlow(TEXT, async ({ runFlow }) => {
    const env = {
      SHOP_URL: `http://127.0.0.1:${server.addr.port}`,
      API_TOKEN: "tok-1",
      SHOP_ID: "default",
      ORDER_NAME: "o-17",
    };
    const run = await runFlow(env);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(seen, [
      "GET /api/admin/shops/default tok-1",
      "POST /api/admin/shops/default/items tok-1",
      "GET /api/admin/shops/default/orders/o-17 tok-1",
    ]);
  });
});
