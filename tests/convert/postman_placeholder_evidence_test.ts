/**
 * A header Postman's importer (`openapi-to-postmanv2`) writes with a type placeholder
 * (`Idempotency-Key: <string>`, `X-Amz-Security-Token: <string>`, `api_key: <string>`) is asked
 * for as a secret only where the collection shows it carries a credential: an `apikey` auth of the
 * collection (any level, any request) sends its key in a header of that name, as the importer
 * writes a document's apiKey security scheme, or the header's own description says it holds one
 * (Walmart's `WM_SEC.ACCESS_TOKEN`: "The access token retrieved in the Token API call"), or it is
 * a header HTTP defines to carry credentials (`Authorization`, `Cookie`). Elsewhere the placeholder
 * is sent as written, as Newman sends it: taken by the header's name alone, 28 of 81 collections
 * the importer made from directory documents asked for 86 variables with no default, so their
 * flows did not run as printed; sent as written by name alone, petstore's `api_key: <string>`, the
 * credential of its apiKey scheme, went out as a literal (5c6f6934 reverted that).
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const V20 = "https://schema.getpostman.com/json/collection/v2.0.0/collection.json";
const KEY = "k_77a9d0c2e4f6b8a1";
const NAMES = [
  "api_key",
  "x-auth-key",
  "idempotency-key",
  "x-amz-security-token",
  "x-amz-credential",
  "x-request-token",
  "x-access-token",
  "authorization",
  "x-api-key",
];

/** The importer's apikey auth (v2.1's list, or v2.0's map) sending `{{apiKey}}` in header `key`. */
function apikey(version: string, key: string, place?: string) {
  const settings: Record<string, string> = { key, value: "{{apiKey}}" };
  if (place) settings.in = place;
  if (version === V20) return { type: "apikey", apikey: settings };
  return {
    type: "apikey",
    apikey: Object.entries(settings).map(([k, value]) => ({ key: k, value, type: "string" })),
  };
}

/** A collection as the importer writes one from a document with an apiKey scheme. */
function collection(version: string, origin: string, placeholder: string) {
  const description = (content: string) =>
    version === V20 ? content : { content, type: "text/plain" };
  const header = (key: string, value: string, about = "") => ({
    key,
    value,
    description: description(about),
  });
  return {
    info: { name: "Imported", schema: version },
    item: [
      {
        name: "inventory",
        // The scheme applies to this request only, as the importer writes an operation's security.
        request: {
          method: "GET",
          url: `${origin}/inventory`,
          auth: apikey(version, "api_key", "header"),
        },
      },
      {
        name: "keyed folder",
        // A folder's auth with no `in`: Postman sends an apikey in a header by default.
        auth: apikey(version, "X-Auth-Key"),
        item: [{ name: "status", request: { method: "GET", url: `${origin}/status` } }],
      },
      {
        name: "query keyed",
        request: {
          method: "GET",
          url: `${origin}/query`,
          auth: apikey(version, "X-Request-Token", "query"),
        },
      },
      {
        name: "delete pet",
        request: {
          method: "DELETE",
          url: `${origin}/pet/1`,
          auth: { type: "noauth" },
          header: [
            header("api_key", placeholder),
            header("X-Auth-Key", placeholder),
            header("Idempotency-Key", placeholder, "A unique identifier for the message (a UUID)."),
            header("X-Amz-Security-Token", placeholder),
            header("X-Amz-Credential", placeholder, ""),
            // A query apikey of this name is no evidence for a header of it.
            header("X-Request-Token", placeholder),
            header(
              "X-Access-Token",
              placeholder,
              "(Required) The access token retrieved in the Token API call",
            ),
            header("Authorization", "Bearer <token>"),
            header("X-Api-Key", KEY),
          ],
        },
      },
    ],
  };
}

for (const version of [V21, V20]) {
  for (const placeholder of ["<string>", "<uuid>", "<long>", "<dateTime>"]) {
    Deno.test(`postman placeholder headers (${version.match(/v2\.\d/)![0]}, ${placeholder}): asked for as a secret only where the collection ties the header to a credential`, async () => {
      const seen: Record<string, string | null>[] = [];
      const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
        if (new URL(req.url).pathname === "/pet/1") {
          seen.push(Object.fromEntries(NAMES.map((n) => [n, req.headers.get(n)])));
        }
        return Response.json({ ok: true });
      });
      const dir = await Deno.makeTempDir();
      try {
        const origin = `http://127.0.0.1:${server.addr.port}`;
        const { files, summary } = convertPostman(
          JSON.stringify(collection(version, origin, placeholder)),
        );
        const text = formatPostmanSummary(summary, dir);
        const asked = text.match(/^Set before running: (.*)$/m)?.[1] ?? "";
        assert.doesNotMatch(asked, /IDEMPOTENCY|AMZ|X_REQUEST_TOKEN/, text);
        for (
          const header of [
            "api_key",
            "X-Auth-Key",
            "X-Access-Token",
            "Bearer Authorization",
            "X-Api-Key",
          ]
        ) {
          assert.match(
            asked,
            new RegExp(`\\(the ${header} header written in the collection, a secret\\)`),
            text,
          );
        }
        const flow = files.find((f) => f.path.endsWith(".yaml"))!;
        assert.doesNotMatch(flow.text, new RegExp(`api_key: "?${placeholder}`), flow.text);
        const env = Object.fromEntries(
          [...asked.matchAll(/([A-Z0-9_]+) \(the (?:Bearer )?(\S+) header written/g)]
            .map(([, name, header]) => [name, `set-${header}`]),
        );
        for (const f of files) await Deno.writeTextFile(`${dir}/${f.path}`, f.text);
        // Run as the summary's Run line says, with the variables it asks for.
        const line = text.match(/^Run: flowrun (.*)$/m)![1].split(" ");
        const run = await runCli(line, {
          env: { ...env, API_KEY: "ak-1", N_127_0_0_1_URL: origin },
        });
        assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
        assert.deepEqual(seen, [{
          api_key: "set-api_key",
          "x-auth-key": "set-X-Auth-Key",
          "idempotency-key": placeholder,
          "x-amz-security-token": placeholder,
          "x-amz-credential": placeholder,
          "x-request-token": placeholder,
          "x-access-token": "set-X-Access-Token",
          authorization: "Bearer set-Authorization",
          "x-api-key": "set-X-Api-Key",
        }]);
      } finally {
        await server.shutdown();
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
}
