/**
 * `convert postman` on a raw JSON body holding `{{…}}` text no variable
 * defines, as ioFog Controller's own collection writes the Liquid templates
 * its server renders (`"{{ \"com.orange.smart-door\" | findEdgeResource }}"`,
 * `"{{ self.name | upcase }}"`): Newman substitutes variables in the raw
 * text, so such a placeholder goes out byte for byte and the server's JSON
 * parser reads `\"` as `"`. flowrun took the placeholder from the raw text
 * and sent it inside the string it decoded, so the server got `\"` (its
 * template failed to parse), and the spacing inside the braces was lost.
 * The oracle is the raw text itself: with no variable defined, what the
 * server parses is `JSON.parse(raw)`.
 */
import assert from "node:assert/strict";
import { sentBy } from "../support/postman_sent.ts";

/** One POST whose raw JSON body is `raw`, with the collection variables `vars`. */
function collection(raw: string, vars: Record<string, string> = {}) {
  return {
    info: { name: "Templates", schema: "https://schema.getpostman.com/json/collection/v2.1.0/" },
    item: [{
      name: "create application",
      request: {
        method: "POST",
        header: [{ key: "Content-Type", value: "application/json" }],
        body: { mode: "raw", raw, options: { raw: { language: "json" } } },
        url: {
          raw: "{{host}}/api/v3/application",
          host: ["{{host}}"],
          path: ["api", "v3", "application"],
        },
      },
    }],
    variable: [
      { key: "host", value: "http://localhost" },
      ...Object.entries(vars).map(([key, value]) => ({ key, value })),
    ],
  };
}

/** Converts `c`, runs it as printed against a server on 127.0.0.1: the body it got, parsed, and the summary. */
async function sent(c: unknown): Promise<{ body: unknown; summary: string }> {
  const { requests, summary } = await sentBy(c);
  assert.equal(requests.length, 1);
  return { body: JSON.parse(requests[0].body), summary };
}

Deno.test("convert postman: a template no variable defines, with quotes, in a JSON string is sent as written", async () => {
  const raw = '{"env": [\n' +
    '  {"key": "NAME", "value": "{{ self.name | upcase }}"},\n' +
    '  {"key": "URL", "value": "{{ \\"com.orange.smart-door\\" | findEdgeResource: \\"0.0.1\\" | first }}"}\n' +
    "]}";
  const { body, summary } = await sent(collection(raw));
  assert.deepEqual(body, JSON.parse(raw));
  // Text Postman never looks up is no variable the user could set.
  assert.doesNotMatch(summary, /^No value .*(upcase|findEdgeResource)/m, summary);
});

Deno.test("convert postman: every JSON escape around a template Postman sends as written reaches the server as Newman sends it", async () => {
  // Keys, arrays, a tag of the template language beside it, escapes in and around the braces,
  // and a variable the collection does define, which is substituted as Newman does.
  const raw = "{\n" +
    '  "{{ key | downcase }}": ["{{ \\"a\\\\\\\\b\\" | x }}", "tab\\t{{ \\u0041 }}\\n"],\n' +
    '  "liquid": "{% assign m = \\"msvc-1\\" %}{{ m | findAgent | map: \\"host\\" }}",\n' +
    '  "slash": "{{ a\\/b }}",\n' +
    '  "id": "item-{{itemId}}"\n' +
    "}";
  const expected = JSON.parse(raw.replace("{{itemId}}", "42"));
  assert.deepEqual((await sent(collection(raw, { itemId: "42" }))).body, expected);
});

Deno.test("convert postman: {{ x }} with spaces inside the braces is no variable, even where x is one, in the URL, a header and the body", async () => {
  // Newman 6, measured: `{{ x }}` goes out as written (a URL percent-encodes it), `{{x}}` as 1.
  const c = collection('{"a": "{{ x }}", "b": "{{x}}"}', { x: "1" }) as {
    item: { request: { url: unknown; header: unknown[] } }[];
  };
  c.item[0].request.url = "{{host}}/p/{{ x }}/{{x}}";
  c.item[0].request.header.push({ key: "X-T", value: "{{ x }}-{{x}}" });
  const { requests } = await sentBy(c);
  const got = requests.map((r) => ({
    path: r.path,
    header: r.headers.get("x-t"),
    body: JSON.parse(r.body),
  }));
  assert.deepEqual(got, [{
    path: "/p/%7B%7B%20x%20%7D%7D/1",
    header: "{{ x }}-1",
    body: { a: "{{ x }}", b: "1" },
  }]);
});
