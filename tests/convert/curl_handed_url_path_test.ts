/**
 * `convert curl`: a URL an answer handed out, with a word of a path after it. A key manager's
 * secret-types page creates a secret (`{"secret_ref": "http://localhost:9311/v1/secrets/48d2…"}`),
 * reads its metadata at that URL and its payload at `…/secrets/48d2…/payload`. The read at the
 * URL itself was the answer's capture; the payload's was sent with the page's own id (404 on
 * any other instance: two of the page's eight commands). A request to an item's absolute URL a
 * JSON answer handed out (its last segment an id), followed by one word (`/payload`,
 * `/acl`, `/metadata`), is that capture and that word; under a service's base URL a JSON answer
 * gives (`"server": "…/v1"`) the request keeps its own path. Run against a server that makes a
 * new id for each secret.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const ID = "48d24158-b4b4-45b8-9669-d9f0ef793c23";

/** Create, read the metadata, read the payload, in the page's shape. */
const page = (origin: string) =>
  `.. code-block:: bash

   curl -s -H 'Content-Type: application/json' \\
   -d '{"name": "key", "payload": "c2VjcmV0"}' \\
   ${origin}/v1/secrets | python -m json.tool

This returns a reference for the secret:

.. code-block:: json

    {
        "secret_ref": "${origin}/v1/secrets/${ID}"
    }

.. code-block:: bash

   curl -s -H 'Accept: application/json' ${origin}/v1/secrets/${ID} | python -m json.tool

.. code-block:: bash

   curl -s -H 'Accept: application/octet-stream' -o retrieved_key \\
   ${origin}/v1/secrets/${ID}/payload
`;

Deno.test("a handed-out URL with path words after it is the capture and the words", () => {
  const { yaml } = convertCurl(page("http://a.test"));
  assert.match(yaml, /url: \$\{raw:steps\.create_secret\.capture\.secret_ref\}\n/, yaml);
  assert.match(yaml, /url: \$\{raw:steps\.create_secret\.capture\.secret_ref\}\/payload\n/, yaml);
  assert.ok(!new RegExp(`url: .*${ID}`).test(yaml), yaml);
});

Deno.test("a base URL an answer gives is no item: paths under it stay the request's", () => {
  const text = page("http://a.test")
    .replace(`"secret_ref": "http://a.test/v1/secrets/${ID}"`, '"server": "http://a.test/v1"')
    .replace(`http://a.test/v1/secrets/${ID}/payload`, "http://a.test/v1/schemas");
  const { yaml } = convertCurl(text);
  assert.ok(!yaml.includes("capture.server}"), yaml);
});

Deno.test("run: the payload read is the secret this run created", async () => {
  const secrets = new Set<string>();
  const seen: string[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => {
      const url = new URL(req.url);
      if (req.method === "POST") {
        const id = crypto.randomUUID();
        secrets.add(id);
        return Response.json({ secret_ref: `${url.origin}/v1/secrets/${id}` }, { status: 201 });
      }
      const [, , , id, part] = url.pathname.split("/");
      seen.push(`${secrets.has(id)} ${part ?? ""}`);
      if (!secrets.has(id)) return Response.json({}, { status: 404 });
      return part === "payload" ? new Response("secret") : Response.json({ name: "key" });
    },
  );
  await withCurlFlow(page(`http://127.0.0.1:${server.addr.port}`), async ({ runFlow }) => {
    const out = await runFlow();
    assert.equal(out.code, 0, out.stdout + out.stderr);
  }, { docs: "secrets.rst" });
  assert.deepEqual(seen, ["true ", "true payload"]);
});
