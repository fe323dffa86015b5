/**
 * Dates a script builds from the clock for a later request (a public
 * project's own Restful Booker suite, measured by hand, see
 * docs/real-servers.md, named the class): what flowrun can say is translated
 * (`new Date().toISOString().slice(0, 10)` is `${NOW.DATE}`, the day in UTC as
 * Newman writes it), and what it cannot — `toLocaleDateString()` (the
 * machine's locale and time zone), a day joined from `getFullYear()`,
 * `getMonth()` and `getDate()` (local time) — breaks the chain loudly: the
 * summary names the value, the script line that sets it and every later
 * request that reads it, and the flow sends `{{x}}` as written, never `""`.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const SETS = [
  "const today = new Date();",
  'pm.collectionVariables.set("iso", new Date().toISOString().slice(0, 10));',
  'pm.collectionVariables.set("locale", today.toLocaleDateString());',
  "const m = String(today.getMonth() + 1).padStart(2, '0');",
  "const d = String(today.getDate()).padStart(2, '0');",
  'pm.environment.set("parts", `${today.getFullYear()}-${m}-${d}`);',
  'pm.environment.set("year", today.getFullYear());',
];

const collection = {
  info: { name: "Dates", schema: V21 },
  variable: [{ key: "baseUrl", value: "http://127.0.0.1:9" }],
  item: [
    {
      name: "Make dates",
      event: [{ listen: "prerequest", script: { exec: SETS } }],
      request: { method: "GET", url: "{{baseUrl}}/health" },
    },
    {
      name: "Book",
      event: [{
        listen: "test",
        script: {
          exec: [
            "const j = pm.response.json();",
            'pm.test("checkin", () => pm.expect(j.checkin).to.eql(pm.collectionVariables.get("locale")));',
          ],
        },
      }],
      request: {
        method: "POST",
        url: "{{baseUrl}}/bookings?year={{year}}",
        header: [{ key: "Content-Type", value: "application/json" }],
        body: {
          mode: "raw",
          raw: '{"iso": "{{iso}}", "locale": "{{locale}}", "parts": "{{parts}}"}',
        },
      },
    },
    { name: "Report", request: { method: "GET", url: "{{baseUrl}}/report?day={{parts}}" } },
  ],
};

Deno.test("postman local date: the UTC day is translated; a local date breaks loudly, naming who reads it", () => {
  const { files, summary } = convertPostman(JSON.stringify(collection));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!.text;
  const text = formatPostmanSummary(summary, "out");
  assert.match(flow, /iso: \$\{NOW\.DATE\}/, flow);
  for (const name of ["locale", "parts", "year"]) {
    const said = new RegExp(
      `sets \\{\\{${name}\\}\\} in a way flowrun cannot express[^\\n]*read by [^\\n]*Book`,
    );
    assert.match(text, said, text);
    // Sent as written where Postman would send the date: never an empty value.
    assert.match(flow, new RegExp(`${name}: \\$\\{vars\\.lbrace\\}\\{${name}\\}\\}`), flow);
  }
  assert.match(text, /\{\{parts\}\}[^\n]*read by Book, Report/, text);
  assert.match(text, /--var locale=…, --var parts=…, --var year=…/, text);
  // The check against the local date is a comment, counted as untranslated.
  assert.match(flow, /untranslated[^]*pm\.expect\(j\.checkin\)/, flow);
  assert.match(text, /1 untranslated/, text);
});
