/**
 * Postman's dynamic variables and the time in scripts, converted, are sent
 * in the shape Postman sends them: one collection with `{{$timestamp}}`,
 * `{{$randomInt}}`, `{{$randomEmail}}`… in the URL, headers and a raw JSON
 * body (bare and quoted), and `Date.now()` / `new Date().toISOString()` in a
 * pre-request script, is run by Newman (Postman's own runner) and, once
 * converted, by flowrun, each against a server this test starts on
 * 127.0.0.1, which classifies every value it receives. The classes must be
 * the same, but for the dates the summary names; times fall between the
 * clock read before and after each run.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";

const COLLECTION =
  new URL("../fixtures/postman/dynamic-variables.postman_collection.json", import.meta.url)
    .pathname;

/** What one request sent: its query, its `x-` headers and its JSON body, by field. */
type Sent = Map<string, unknown>;

/** A server that keeps what each request sent, by path; the body must parse as JSON. */
function recorder() {
  const seen = new Map<string, Sent>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const sent: Sent = new Map();
    for (const [k, v] of url.searchParams) sent.set(`query.${k}`, v);
    for (const [k, v] of req.headers) if (k.startsWith("x-")) sent.set(`header.${k}`, v);
    const text = await req.text();
    try {
      for (const [k, v] of Object.entries(JSON.parse(text))) sent.set(`body.${k}`, v);
    } catch {
      sent.set("body", `not JSON: ${text}`);
    }
    seen.set(url.pathname, sent);
    return Response.json({ ok: true });
  });
  return { seen, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** The size class of a whole number: Unix seconds, Unix milliseconds, or other. */
function band(n: number): string {
  return n >= 1e9 && n < 1e10 ? ":unix-s" : n >= 1e12 && n < 1e13 ? ":unix-ms" : "";
}

const TEXT_SHAPES: [string, RegExp][] = [
  ["uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/],
  ["iso", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/],
  ["bool", /^(true|false)$/],
  ["decimal", /^-?\d+\.\d+$/],
  ["semver", /^\d+\.\d+\.\d+$/],
  ["ipv4", /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/],
  ["ipv6", /^([0-9a-f]{1,4}:){7}[0-9a-f]{1,4}$/i],
  ["mac", /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/i],
  ["hex-color", /^#[0-9a-f]{6}$/i],
  ["email", /^[\w.'+-]+@[a-z\d-]+(\.[a-z\d-]+)*\.[a-z]{2,}$/i],
  ["url", /^https?:\/\/[a-z\d-]+(\.[a-z\d-]+)+(\/\S*)?$/i],
  // Lower case and a suffix faker gives: a user name is "Jane.Doe".
  ["domain", /^[a-z\d-]+(\.[a-z\d-]+)*\.(com|net|org|info|biz|name)$/],
  ["phone", /^[\d()+. -]{10,}( x\d+)?$/],
  ["date-text", /^[A-Z][a-z]{2} [A-Z][a-z]{2} \d\d \d{4} \d\d:\d\d:\d\d GMT/],
  // Words, names, lorem: faker's words may hold any punctuation ("24/7", "(E.M.U.-6)").
  ["text", /^[^@\n]*[A-Za-z][^@\n]*$/],
];

/** What a value is: its JSON type and, for text, the first shape it has. */
function shape(value: unknown): string {
  if (typeof value === "number") return Number.isInteger(value) ? `int${band(value)}` : "float";
  if (typeof value !== "string") return typeof value;
  if (/^\d+$/.test(value)) return `digits${band(Number(value))}`;
  if (value.length === 1) return "char";
  return TEXT_SHAPES.find(([, re]) => re.test(value))?.[0] ?? `other: ${value}`;
}

/** The shapes of what a request sent; `{{$randomAlphaNumeric}}` is one letter or one digit. */
const shapes = (sent: Sent) =>
  new Map(
    [...sent].map((
      [k, v],
    ) => [k, k === "body.alnum" && /^[a-z\d]$/i.test(String(v)) ? "alnum-char" : shape(v)]),
  );

/** The times a run sent, each within the clock read around it (seconds, ms, ISO). */
function assertTimes(sent: Sent, before: number, after: number, fields: string[]): void {
  for (const field of fields) {
    const value = sent.get(field);
    const n = typeof value === "number" || /^\d+$/.test(String(value))
      ? Number(value)
      : Date.parse(String(value));
    // Unix seconds: flowrun floors them, Postman rounds them, so the bounds are whole seconds.
    const [lo, hi] = n < 1e12
      ? [Math.floor(before / 1000), Math.ceil(after / 1000)]
      : [before, after];
    assert.ok(n >= lo && n <= hi, `${field}: ${value} not within ${lo}..${hi}`);
  }
}

Deno.test("convert postman: dynamic variables and script times are sent in the shape Newman sends them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-dynamic-" });
  const byNewman = recorder();
  const byFlowrun = recorder();
  try {
    let before = Date.now();
    const counts = await runNewman(COLLECTION, { baseUrl: byNewman.url });
    assert.equal(counts.requests, 2, JSON.stringify(counts));
    let after = Date.now();
    const newman = byNewman.seen;
    assert.deepEqual([...newman.keys()], ["/dynamic", "/scripted"]);
    const times = ["query.ts", "query.iso", "header.x-ts", "header.x-iso", "body.at", "body.iso"];
    assertTimes(newman.get("/dynamic")!, before, after, times);

    const converted = await runCli(["convert", "postman", COLLECTION, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stdout + converted.stderr);
    const summary = converted.stdout + converted.stderr;
    assert.ok(
      summary.includes(
        "Not in the shape Postman sends (dates as ISO 8601 times, the rest as random text): " +
          "{{$randomDateFuture}}, {{$randomDatePast}}.",
      ),
      summary,
    );
    // The time is no variable the user must set.
    assert.ok(!/No value in the collection[^\n]*\$timestamp/.test(summary), summary);
    assert.ok(!summary.includes("untranslated, from"), summary);

    before = Date.now();
    const run = await runCli(["run", `${dir}/flows`], { env: { BASE_URL: byFlowrun.url } });
    after = Date.now();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const flowrun = byFlowrun.seen;
    assertTimes(flowrun.get("/dynamic")!, before, after, times);
    assertTimes(flowrun.get("/scripted")!, before, after, [
      "query.stamp",
      "body.stamp",
      "body.when",
      "body.secs",
    ]);

    for (const path of ["/dynamic", "/scripted"]) {
      const expected = shapes(newman.get(path)!);
      // The dates are the ones the summary names: ISO 8601 times, not JavaScript's date text.
      for (const field of ["body.future", "body.past"]) {
        if (!expected.has(field)) continue;
        assert.equal(expected.get(field), "date-text");
        expected.set(field, "iso");
      }
      assert.deepEqual(shapes(flowrun.get(path)!), expected, path);
    }
    // The shapes the classes above stand for, spelled out for the ones the issue names.
    const d = shapes(flowrun.get("/dynamic")!);
    assert.equal(d.get("body.qty"), "int");
    assert.equal(d.get("body.ok"), "boolean");
    assert.equal(d.get("body.at"), "int:unix-s");
    assert.equal(d.get("body.account"), "digits", "a quoted {{$randomBankAccount}} stays text");
    assert.equal(d.get("body.email"), "email");
    assert.equal(d.get("query.ts"), "digits:unix-s");
    const s = flowrun.get("/scripted")!;
    assert.equal(shape(s.get("body.stamp")), "int:unix-ms");
    assert.match(String(s.get("body.uname")), /^user-\d{13}$/);
    assert.equal(shape(s.get("body.secs")), "int:unix-s");
  } finally {
    await byNewman.close();
    await byFlowrun.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** Postman's dynamic variables, as its "dynamic variables" docs list them. */
const POSTMAN_DYNAMIC = (
  "guid timestamp isoTimestamp randomUUID randomAlphaNumeric randomBoolean randomInt randomColor " +
  "randomHexColor randomAbbreviation randomIP randomIPV6 randomMACAddress randomPassword " +
  "randomLocale randomUserAgent randomProtocol randomSemver randomFirstName randomLastName " +
  "randomFullName randomNamePrefix randomNameSuffix randomJobArea randomJobDescriptor " +
  "randomJobTitle randomJobType randomPhoneNumber randomPhoneNumberExt randomCity " +
  "randomStreetName randomStreetAddress randomCountry randomCountryCode randomLatitude " +
  "randomLongitude randomAvatarImage randomImageUrl randomAbstractImage randomAnimalsImage " +
  "randomBusinessImage randomCatsImage randomCityImage randomFoodImage randomNightlifeImage " +
  "randomFashionImage randomPeopleImage randomNatureImage randomSportsImage randomTransportImage " +
  "randomImageDataUri randomBankAccount randomBankAccountName randomCreditCardMask " +
  "randomBankAccountBic randomBankAccountIban randomTransactionType randomCurrencyCode " +
  "randomCurrencyName randomCurrencySymbol randomBitcoin randomCompanyName randomCompanySuffix " +
  "randomBs randomBsAdjective randomBsBuzz randomBsNoun randomCatchPhrase " +
  "randomCatchPhraseAdjective randomCatchPhraseDescriptor randomCatchPhraseNoun " +
  "randomDatabaseColumn randomDatabaseType randomDatabaseCollation randomDatabaseEngine " +
  "randomDateFuture randomDatePast randomDateRecent randomWeekday randomMonth randomDomainName " +
  "randomDomainSuffix randomDomainWord randomEmail randomExampleEmail randomUserName randomUrl " +
  "randomFileName randomFileType randomFileExt randomCommonFileName randomCommonFileType " +
  "randomCommonFileExt randomFilePath randomDirectoryPath randomMimeType randomPrice " +
  "randomProduct randomProductAdjective randomProductMaterial randomProductName " +
  "randomDepartment randomNoun randomVerb randomIngverb randomAdjective randomWord randomWords " +
  "randomPhrase randomLoremWord randomLoremWords randomLoremSentence randomLoremSentences " +
  "randomLoremParagraph randomLoremParagraphs randomLoremText randomLoremSlug randomLoremLines"
).split(" ");

/** The ones flowrun cannot make in Postman's shape, which the summary names. */
const UNSHAPED = [
  "randomBankAccountBic",
  "randomBankAccountIban",
  "randomBitcoin",
  "randomCountryCode",
  "randomCurrencyCode",
  "randomCurrencySymbol",
  "randomDateFuture",
  "randomDatePast",
  "randomDateRecent",
  "randomImageDataUri",
  "randomLocale",
  "randomMonth",
  "randomNotPostmans",
  "randomWeekday",
];

Deno.test("convert postman: every dynamic variable is made, and the summary names each one not of Postman's shape", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-dynamic-all-" });
  try {
    const names = [...POSTMAN_DYNAMIC, "randomNotPostmans"];
    const collection = {
      info: {
        name: "all",
        schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
      },
      item: [{
        name: "all",
        request: {
          method: "POST",
          url: "http://127.0.0.1:9/all",
          body: {
            mode: "raw",
            raw: `{${names.map((n) => `"${n}": "x {{$${n}}}"`).join(", ")}}`,
            options: { raw: { language: "json" } },
          },
        },
      }],
    };
    await Deno.writeTextFile(`${dir}/all.json`, JSON.stringify(collection));
    const converted = await runCli(["convert", "postman", `${dir}/all.json`, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stdout + converted.stderr);
    const out = converted.stdout + converted.stderr;
    const named = out.match(/Not in the shape Postman sends[^:]*: (.*)\.\n/)?.[1];
    assert.equal(named, UNSHAPED.map((n) => `{{$${n}}}`).join(", "), out);
    assert.ok(!out.includes("No value in the collection"), out);
    const flow = await Deno.readTextFile(`${dir}/flows/1_all.yaml`);
    assert.ok(!flow.includes("{{"), flow);
    // The flow loads: every expression the table writes is one flowrun reads.
    const validated = await runCli(["validate", `${dir}/flows`]);
    assert.equal(validated.code, 0, validated.stdout + validated.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
