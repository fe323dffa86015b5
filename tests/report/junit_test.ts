import assert from "node:assert/strict";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import {
  junitFormat,
  junitReporter,
  toJUnitXml,
  xmlAttr,
  xmlText,
} from "../../lib/report/junit.ts";
import type { FlowResult, RunResult, StepResult } from "../../lib/model/result.ts";
import { ignoreXsd, validateJUnit, whyXsdIgnored } from "../support/xmllint.ts";
import { run, skippedStep, writtenAtRunEnd } from "../support/results.ts";

// Control characters, a lone surrogate, a CDATA terminator and markup: what a
// misbehaving server can put in a body, and what must not break the report.
const NASTY_BODY =
  '{"state":"pend<ing>","raw":"\u0000\u001b[31m\ud800 ]]> & \\"q\\" \'a\'"}\r\nline 2';
const FAILED_MESSAGE =
  '$.json.state: expected "ready", got "pend<ing>" & more\n  second line (and 1 more).';

function statusCheck(
  actual: number,
  passed: boolean,
  line: number,
): StepResult["assertions"][number] {
  return {
    phase: "assert",
    path: "status",
    operator: "equals",
    expected: 200,
    actual,
    found: true,
    passed,
    message: passed ? `status ${actual}` : `status: expected 200, got ${actual}`,
    line,
    column: 15,
  };
}

function fixture(): RunResult {
  const health: FlowResult = {
    file: "flows/health.yaml",
    name: "health",
    status: "passed",
    started_at: "2025-03-01T10:15:00.010Z",
    duration_ms: 12.3,
    steps: [{
      name: "ping",
      status: "passed",
      duration_ms: 11.6,
      attempts: 1,
      line: 3,
      column: 5,
      request: { method: "GET", url: "http://api.test/health" },
      response: { status: 200, content_type: "application/json" },
      assertions: [statusCheck(200, true, 6)],
      captures: [],
    }],
  };
  const orders: FlowResult = {
    file: "flows/orders & more.yaml",
    name: 'orders <create> & "check"',
    status: "failed",
    started_at: "2025-03-01T10:15:00.030Z",
    duration_ms: 1530.25,
    steps: [
      {
        name: "create order",
        status: "passed",
        duration_ms: 20,
        attempts: 1,
        line: 4,
        column: 5,
        request: { method: "POST", url: "http://api.test/orders" },
        response: { status: 201, content_type: "application/json" },
        assertions: [{ ...statusCheck(201, true, 8), expected: [200, 201], operator: "anyOf" }],
        captures: ["order_id"],
      },
      {
        name: "wait for 'ready'\nstate",
        status: "failed",
        duration_ms: 1500.4,
        attempts: 3,
        line: 14,
        column: 5,
        request: { method: "GET", url: "http://api.test/orders/42?x=1&y=2" },
        response: { status: 200, body_excerpt: NASTY_BODY, content_type: "application/json" },
        assertions: [
          statusCheck(200, true, 19),
          {
            phase: "assert",
            path: "$.json.state",
            operator: "equals",
            expected: "ready",
            actual: "pend<ing>",
            found: true,
            passed: false,
            message: '$.json.state: expected "ready", got "pend<ing>"',
            line: 21,
            column: 11,
          },
          {
            phase: "assert",
            path: "$.json.items[0].id",
            operator: "exists",
            expected: true,
            actual: null,
            found: false,
            passed: false,
            message: "$.json.items[0].id does not exist",
            line: 22,
            column: 11,
          },
        ],
        captures: [],
        message: FAILED_MESSAGE,
        failure_kind: "assertion",
      },
      skippedStep("cancel", 24, "Skipped: step \"wait for 'ready'\nstate\" failed"),
    ],
  };
  const payments: FlowResult = {
    file: "flows/payments.yaml",
    name: "payments",
    status: "error",
    started_at: "2025-03-01T10:15:01.560Z",
    duration_ms: 802.9996,
    steps: [
      {
        name: "charge",
        status: "error",
        duration_ms: 800,
        attempts: 1,
        line: 3,
        column: 5,
        request: { method: "POST", url: "http://127.0.0.1:9/charge" },
        response: null,
        assertions: [],
        captures: [],
        message: "Connection refused (os error 111)\tto http://127.0.0.1:9/charge.",
        failure_kind: "request",
      },
      skippedStep("receipt", 9, 'Skipped: step "charge" had an error'),
    ],
  };
  return run([health, orders, payments]);
}

// Elements that may repeat are always arrays, so a one-element list does not
// change shape; numeric character references must be decoded to compare text.
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  htmlEntities: true,
  isArray: (name) => ["testsuite", "testcase", "property", "failure", "error"].includes(name),
});

// deno-lint-ignore no-explicit-any
type Node = any;

function parse(xml: string): Node {
  return parser.parse(xml);
}

function attrs(node: Node): string[] {
  return Object.keys(node).filter((k) => k.startsWith("@_")).map((k) => k.slice(2));
}

Deno.test("xmlText escapes markup and makes XML-illegal characters visible", () => {
  assert.equal(
    xmlText(`a & b < c > d "e" 'f'`),
    "a &amp; b &lt; c &gt; d &quot;e&quot; &apos;f&apos;",
  );
  assert.equal(xmlText("]]>"), "]]&gt;");
  assert.equal(xmlText("tab\there\nline"), "tab\there\nline", "tabs and newlines are fine in text");
  assert.equal(xmlText("cr\r\n"), "cr&#13;\n", "a raw CR would be normalised away");
  assert.equal(
    xmlText("\u0000\u0001\u0008\u000b\u000c\u001b\u001f"),
    "\\u0000\\u0001\\u0008\\u000b\\u000c\\u001b\\u001f",
  );
  assert.equal(xmlText("x\ud800y"), "x\\ud800y", "lone high surrogate");
  assert.equal(xmlText("x\udfffy"), "x\\udfffy", "lone low surrogate");
  assert.equal(xmlText("\udc00\ud800"), "\\udc00\\ud800", "a reversed pair is two lone surrogates");
  assert.equal(xmlText("\ufffe\uffff"), "\\ufffe\\uffff");
  // The edges of the allowed ranges, and a real surrogate pair, stay as they are.
  const legal = "\u0020\ud7ff\ue000\ufffd\u{10000}😀\u{10ffff}";
  assert.equal(xmlText(legal), legal);
  assert.equal(xmlText("&amp;"), "&amp;amp;", "existing entities are text, not markup");
});

Deno.test("xmlAttr also encodes tabs and line breaks", () => {
  assert.equal(xmlAttr('a\tb\nc\rd "e" <&>'), "a&#9;b&#10;c&#13;d &quot;e&quot; &lt;&amp;&gt;");
  assert.equal(xmlAttr("\u0007\ud800"), "\\u0007\\ud800");
  const parsed = parse(`<a v="${xmlAttr("one\ntwo\tthree\r\n & 'x'")}"/>`);
  assert.equal(
    parsed.a["@_v"],
    "one\ntwo\tthree\r\n & 'x'",
    "survives a parser's attribute normalisation",
  );
});

Deno.test("toJUnitXml maps flows to suites and steps to cases", () => {
  const result = fixture();
  const xml = toJUnitXml(result);
  assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites '));
  assert.ok(xml.endsWith("</testsuites>\n"));
  const doc = parse(xml);

  const root = doc.testsuites;
  assert.deepEqual(attrs(root).sort(), ["errors", "failures", "name", "tests", "time"]);
  assert.equal(root["@_name"], "flowrun");
  assert.equal(root["@_tests"], "6");
  assert.equal(root["@_failures"], "1");
  assert.equal(root["@_errors"], "1");
  assert.equal(root["@_time"], "2.345");

  const suites: Node[] = root.testsuite;
  assert.equal(suites.length, 3);
  const suiteAttrs = suites.map((s) => [
    s["@_name"],
    s["@_tests"],
    s["@_failures"],
    s["@_errors"],
    s["@_skipped"],
    s["@_time"],
    s["@_timestamp"],
    s["@_id"],
  ]);
  assert.deepEqual(suiteAttrs, [
    ["health", "1", "0", "0", "0", "0.012", "2025-03-01T10:15:00.010Z", "0"],
    ['orders <create> & "check"', "3", "1", "0", "1", "1.530", "2025-03-01T10:15:00.030Z", "1"],
    ["payments", "2", "0", "1", "1", "0.803", "2025-03-01T10:15:01.560Z", "2"],
  ]);
  for (const suite of suites) {
    assert.deepEqual(attrs(suite).sort(), [
      "errors",
      "failures",
      "id",
      "name",
      "skipped",
      "tests",
      "time",
      "timestamp",
    ]);
  }

  const props = (s: Node) => s.properties.property.map((p: Node) => [p["@_name"], p["@_value"]]);
  assert.deepEqual(props(suites[1]), [
    ["file", "flows/orders & more.yaml"],
    ["run_id", "20250301-101500-a1b2c3"],
    ["runner_version", "0.1.0"],
    ["status", "failed"],
  ]);
  assert.deepEqual(props(suites[2])[3], ["status", "error"]);

  const cases = suites.map((s) =>
    s.testcase.map((c: Node) => [c["@_classname"], c["@_name"], c["@_time"], c["@_assertions"]])
  );
  assert.deepEqual(cases, [
    [["flows/health", "ping", "0.012", "1"]],
    [
      ["flows/orders & more", "create order", "0.020", "1"],
      ["flows/orders & more", "wait for 'ready'\nstate", "1.500", "3"],
      ["flows/orders & more", "cancel", "0.000", "0"],
    ],
    [
      ["flows/payments", "charge", "0.800", "0"],
      ["flows/payments", "receipt", "0.000", "0"],
    ],
  ]);
  for (const suite of suites) {
    for (const c of suite.testcase) {
      assert.deepEqual(attrs(c).sort(), ["assertions", "classname", "name", "time"]);
    }
  }
  const passed = suites[0].testcase[0];
  assert.deepEqual(
    Object.keys(passed).filter((k) => !k.startsWith("@_")),
    [],
    "a passed case has no children",
  );
});

Deno.test("a failed step's failure reads well: message, location, request, checks, body", () => {
  const doc = parse(toJUnitXml(fixture()));
  const step = doc.testsuites.testsuite[1].testcase[1];
  assert.equal(step.error, undefined);
  assert.equal(step.skipped, undefined);
  assert.equal(step.failure.length, 1);
  const failure = step.failure[0];
  assert.deepEqual(attrs(failure).sort(), ["message", "type"]);
  assert.equal(failure["@_type"], "assertion");
  assert.equal(
    failure["@_message"],
    '$.json.state: expected "ready", got "pend<ing>" & more second line (and 1 more).',
    "one line, whitespace collapsed",
  );
  const body: string = failure["#text"];
  const file = "flows/orders & more.yaml";
  const expected = [
    FAILED_MESSAGE,
    `at ${file}:14:5`,
    "GET http://api.test/orders/42?x=1&y=2 → 200",
    "",
    "✘ $.json.state equals",
    '    expected: "ready"',
    '    actual:   "pend<ing>"',
    '    $.json.state: expected "ready", got "pend<ing>"',
    `    at ${file}:21:11`,
    "",
    "✘ $.json.items[0].id exists",
    "    expected: true",
    "    actual:   (nothing matched)",
    "    $.json.items[0].id does not exist",
    `    at ${file}:22:11`,
    "",
    "✔ status equals",
    "",
    "response body (application/json):",
    '{"state":"pend<ing>","raw":"\\u0000\\u001b[31m\\ud800 ]]> & \\"q\\" \'a\'"}\r\nline 2',
  ].join("\n");
  assert.equal(body, expected);
});

Deno.test("XML-illegal characters become visible escapes and never reach the file", () => {
  const xml = toJUnitXml(fixture());
  assert.doesNotMatch(xml, /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u);
  assert.ok(xml.includes("\\u0000\\u001b[31m\\ud800 ]]&gt; &amp;"), "escaped in the raw XML");
  assert.ok(!xml.includes("]]>"), "a CDATA terminator never appears raw");
  assert.ok(xml.includes("&#13;\nline 2"), "CR is kept as a reference");
  const body: string = parse(xml).testsuites.testsuite[1].testcase[1].failure[0]["#text"];
  assert.ok(body.includes("\\u0000\\u001b[31m\\ud800 ]]>"));
  assert.ok(body.endsWith("\r\nline 2"));
});

Deno.test("skipped steps carry their reason; request errors map to <error>", () => {
  const suites = parse(toJUnitXml(fixture())).testsuites.testsuite;
  const cancel = suites[1].testcase[2];
  assert.equal(cancel.skipped, "Skipped: step \"wait for 'ready'\nstate\" failed");
  assert.equal(cancel.failure, undefined);

  const charge = suites[2].testcase[0];
  assert.equal(charge.failure, undefined);
  assert.equal(charge.error.length, 1);
  assert.equal(charge.error[0]["@_type"], "request");
  assert.equal(
    charge.error[0]["@_message"],
    "Connection refused (os error 111) to http://127.0.0.1:9/charge.",
  );
  assert.equal(
    charge.error[0]["#text"],
    [
      "Connection refused (os error 111)\tto http://127.0.0.1:9/charge.",
      "at flows/payments.yaml:3:5",
      "POST http://127.0.0.1:9/charge → no response",
    ].join("\n"),
  );
  assert.equal(suites[2].testcase[1].skipped, 'Skipped: step "charge" had an error');
});

Deno.test("the message attribute is capped to one short line", () => {
  const result = fixture();
  const step = result.flows[2].steps[0];
  step.message = "😀 word\n".repeat(200);
  const doc = parse(toJUnitXml(result));
  const message: string = doc.testsuites.testsuite[2].testcase[0].error[0]["@_message"];
  assert.equal(Array.from(message).length, 300);
  assert.ok(message.endsWith("…"));
  assert.ok(!message.includes("\n"));
  assert.doesNotMatch(message, /\\u/, "a surrogate pair is never cut in half");
  const body: string = doc.testsuites.testsuite[2].testcase[0].error[0]["#text"];
  assert.ok(body.startsWith(step.message), "the body keeps the whole message");
});

Deno.test("a flow that failed with every step skipped says why in system-err", () => {
  const flow: FlowResult = {
    file: "flows/vars.yaml",
    name: "vars",
    status: "error",
    started_at: "2025-03-01T10:15:00.000Z",
    duration_ms: 1,
    steps: [
      skippedStep(
        "only",
        5,
        "Skipped: the flow's vars could not be evaluated: ${env.MISSING} is not set",
      ),
    ],
  };
  const xml = toJUnitXml(run([flow]));
  const suite = parse(xml).testsuites.testsuite[0];
  assert.equal(
    suite["system-err"],
    "Flow error: Skipped: the flow's vars could not be evaluated: ${env.MISSING} is not set",
  );
  assert.ok(
    xml.indexOf("</testcase>") < xml.indexOf("<system-err>"),
    "system-err follows the cases",
  );
});

Deno.test("output is deterministic, indented by two spaces, and leaves the input alone", () => {
  const result = fixture();
  const before = structuredClone(result);
  const xml = toJUnitXml(result);
  assert.equal(toJUnitXml(result), xml);
  assert.equal(toJUnitXml(structuredClone(result)), xml);
  assert.deepEqual(result, before);
  const lines = xml.split("\n");
  assert.equal(lines[1].startsWith("<testsuites "), true);
  assert.equal(lines[2].startsWith("  <testsuite "), true);
  assert.equal(lines[3], "    <properties>");
  assert.equal(lines[4].startsWith('      <property name="file" '), true);
  assert.ok(
    lines.some((l) => l.startsWith('    <testcase classname="flows/health" name="ping"')),
  );
});

Deno.test("an empty run is an empty <testsuites>", () => {
  const xml = toJUnitXml(run([], 0.4));
  assert.equal(
    xml,
    '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="flowrun" tests="0" failures="0" errors="0" time="0.000"/>\n',
  );
});

Deno.test("junitReporter writes the XML when the run ends", async () => {
  const result = fixture();
  const written = await writtenAtRunEnd((write) => junitReporter(write), result);
  assert.deepEqual(written, [toJUnitXml(result)]);
});

// Validation against the Jenkins XSD, the strictest format CI tools accept.
const validate = validateJUnit;

Deno.test({
  name: `the JUnit XML validates against the Jenkins XSD (xmllint)${whyXsdIgnored}`,
  ignore: ignoreXsd,
  async fn() {
    await validate(toJUnitXml(fixture()));
    await validate(toJUnitXml(run([])));
    const allSkipped = fixture();
    allSkipped.flows[2].status = "error";
    allSkipped.flows[2].steps = allSkipped.flows[2].steps.slice(1);
    await validate(toJUnitXml(allSkipped));
  },
});

Deno.test({
  name: `the XSD check itself rejects an attribute outside the schema (xmllint)${whyXsdIgnored}`,
  ignore: ignoreXsd,
  async fn() {
    const bad = toJUnitXml(fixture()).replace(
      '<testsuites name="flowrun"',
      '<testsuites name="flowrun" skipped="1"',
    );
    await assert.rejects(() => validate(bad), /xmllint rejected/);
  },
});

/** Strings that break XML writers that forget a place: markup, quotes, controls, CDATA ends. */
const NASTY = [
  "login & fetch",
  `a<b>"c"'d'`,
  "]]> end of cdata",
  "<![CDATA[ x ]]>",
  "tab\there\nnew\rline",
  "bell\x07 esc\x1b nul\x00",
  "lone \ud800 surrogate",
  "non-chars \ufffe \uffff",
  "&amp; already &lt;escaped&gt;",
  "emoji 🙂 é ñ",
  "-->",
];

Deno.test("every string in a JUnit report is escaped: names, messages, properties, bodies", async () => {
  const flows: FlowResult[] = NASTY.map((text, i) => ({
    file: `flows/${text}.yaml`,
    name: text,
    status: "failed",
    trace_id: "0af7651916cd43dd8448eb211c80319c",
    started_at: "2025-03-01T10:15:00.000Z",
    duration_ms: 1,
    steps: [{
      name: text,
      status: "failed",
      duration_ms: 1,
      attempts: 1,
      line: 1,
      column: 1,
      trace: { trace_id: "0af7651916cd43dd8448eb211c80319c", span_id: `b7ad6b71692033${10 + i}` },
      request: {
        method: "POST",
        url: `http://x.test/?q=${text}`,
        headers: { h: text },
        body: text,
      },
      response: { status: 500, body: text, body_excerpt: text, headers: { h: text } },
      assertions: [{
        phase: "assert",
        path: `$.json['${text}']`,
        operator: "equals",
        expected: text,
        actual: text,
        found: true,
        passed: false,
        message: text,
        line: 2,
        column: 3,
      }],
      captures: [text],
      message: text,
      failure_kind: "assertion",
    }],
  }));
  const xml = toJUnitXml(run(flows));
  assert.equal(XMLValidator.validate(xml), true, "well-formed");
  if (!ignoreXsd) await validateJUnit(xml);
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(xml);
  const names = [parsed.testsuites.testsuite].flat().map((s: { name: string }) => s.name);
  assert.equal(names.length, NASTY.length);
  assert.ok(names.includes("login & fetch"), "a name reads back as written");
});

/** The pieces nasty strings are made of: every class of character XML treats specially. */
const ATOMS = [
  "&",
  "<",
  ">",
  '"',
  "'",
  "]]>",
  "<![CDATA[",
  "-->",
  "<!--",
  "&amp;",
  "&#0;",
  "&#x1F;",
  "\t",
  "\n",
  "\r",
  "\r\n",
  "\u0000",
  "\u0001",
  "\u0008",
  "\u000b",
  "\u000c",
  "\u001b[2J",
  "\u007f",
  "\u0085",
  "\u2028",
  "\ud800",
  "\udfff",
  "\udbff\udfff",
  "\ufffe",
  "\uffff",
  "\ufeff",
  "🙂",
  "é",
  " ",
  "a",
  "login & fetch",
  '<?xml version="1.0"?>',
  "<testsuite>",
  "\\u0000",
];

/** A seeded generator of nasty strings, so a failure can be replayed. */
function nastyStrings(seed: number): () => string {
  const next = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  return () => {
    const length = 1 + Math.floor(next() * 8);
    return Array.from({ length }, () => ATOMS[Math.floor(next() * ATOMS.length)]).join("");
  };
}

/** What the XML must show for a string: XML-illegal characters as visible escapes. */
function visibleForm(s: string): string {
  return s.replace(
    /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

function nastyRun(text: () => string, flows: number): RunResult {
  const list: FlowResult[] = [];
  for (let i = 0; i < flows; i++) {
    const failed: StepResult = {
      name: text(),
      status: "failed",
      duration_ms: 1,
      attempts: 1,
      line: 1,
      column: 1,
      trace: { trace_id: text(), span_id: text() },
      request: { method: text(), url: text(), headers: { [text()]: text() }, body: text() },
      response: {
        status: 500,
        body: text(),
        body_excerpt: text(),
        content_type: text(),
        headers: { [text()]: text() },
      },
      assertions: [
        {
          phase: "until",
          path: text(),
          operator: text(),
          expected: text(),
          actual: { [text()]: [text()] },
          found: true,
          passed: false,
          message: text(),
          line: 2,
          column: 3,
        },
        {
          phase: "assert",
          path: text(),
          operator: text(),
          expected: text(),
          actual: text(),
          found: false,
          passed: true,
          message: text(),
          line: 2,
          column: 3,
        },
      ],
      captures: [text()],
      message: text(),
      failure_kind: text() as StepResult["failure_kind"],
    };
    const errored: StepResult = {
      ...failed,
      name: text(),
      status: "error",
      message: text(),
      response: null,
      trace: undefined,
      assertions: [],
    };
    const skipped: StepResult = {
      ...failed,
      name: text(),
      status: "skipped",
      message: text(),
      request: null,
      response: null,
      assertions: [],
    };
    const passed: StepResult = { ...failed, name: text(), status: "passed", message: undefined };
    list.push({
      file: `flows/${text()}.yaml`,
      name: text(),
      status: i % 3 === 2 ? "error" : "failed",
      trace_id: text(),
      started_at: text(),
      duration_ms: 1,
      // Every third flow has only skipped steps, so its reason goes into <system-err>.
      steps: i % 3 === 2 ? [skipped] : [failed, errored, skipped, passed],
    });
  }
  return { ...run(list), run_id: text(), runner_version: text(), interrupted: text() };
}

Deno.test(
  `a generated corpus of nasty strings in every field gives well-formed, schema-valid JUnit${whyXsdIgnored}`,
  async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const result = nastyRun(nastyStrings(seed), 12);
      const xml = toJUnitXml(result);
      const verdict = XMLValidator.validate(xml);
      assert.equal(verdict, true, `seed ${seed}: ${JSON.stringify(verdict)}`);
      assert.ok(!xml.includes("]]>"), `seed ${seed}: no CDATA terminator in the text`);
      assert.doesNotMatch(
        xml,
        /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u,
        `seed ${seed}: no XML-illegal character`,
      );
      if (!ignoreXsd) await validateJUnit(xml);
      // Names read back as written, with the illegal characters made visible. Attribute values
      // are compared where the parser does not normalise them (no tab, CR or LF).
      const parsed = new XMLParser({
        ignoreAttributes: false,
        attributeNamePrefix: "",
        htmlEntities: true,
        trimValues: false,
      }).parse(xml);
      const suites = [parsed.testsuites.testsuite].flat();
      assert.equal(suites.length, result.flows.length, `seed ${seed}`);
      result.flows.forEach((flow, i) => {
        if (/[\t\r\n]/.test(flow.name)) return;
        assert.equal(suites[i].name, visibleForm(flow.name), `seed ${seed}, flow ${i}`);
      });
    }
  },
);

Deno.test("the README's traced step 'login & fetch' gives escaped property names", () => {
  const xml = toJUnitXml(run([{
    file: "flows/checkout.yaml",
    name: "checkout",
    status: "passed",
    started_at: "2025-03-01T10:15:00.000Z",
    duration_ms: 1,
    steps: [{
      name: "login & fetch",
      status: "passed",
      duration_ms: 1,
      attempts: 1,
      line: 3,
      column: 5,
      request: { method: "GET", url: "http://x.test/" },
      response: { status: 200 },
      assertions: [],
      captures: [],
      trace: { trace_id: "0af7651916cd43dd8448eb211c80319c", span_id: "b7ad6b7169203331" },
    }],
  }]));
  assert.equal(XMLValidator.validate(xml), true);
  assert.ok(xml.includes('<property name="login &amp; fetch.trace_id"'));
});

Deno.test("the testsuites counts are the run's totals: no flow's steps are read for them", () => {
  // A long failing run keeps its flows' steps on disk (`spillSteps`): reading every flow's
  // back at once for the head held them all in memory together.
  let reads = 0;
  const flows = Array.from({ length: 3 }, (_, i) => {
    const flow = {
      file: `f${i}.yaml`,
      name: `f${i}`,
      status: "failed",
      started_at: "",
      duration_ms: 1,
    };
    return Object.defineProperty(flow, "steps", {
      get: () => {
        reads++;
        return [];
      },
      enumerable: true,
    }) as unknown as FlowResult;
  });
  const steps = { total: 12, passed: 5, failed: 4, error: 2, skipped: 1 };
  const result: RunResult = {
    ...run([]),
    totals: {
      flows: { total: 3, passed: 0, failed: 3, error: 0, skipped: 0 },
      steps,
      assertions: { total: 9, passed: 5, failed: 4 },
    },
    flows,
  };
  const head = junitFormat().head(result, false);
  assert.equal(reads, 0);
  assert.match(head, /<testsuites name="flowrun" tests="12" failures="4" errors="2" /);
});
