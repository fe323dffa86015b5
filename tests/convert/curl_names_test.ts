/**
 * `convertCurl`: a name a command chooses for what it creates is sent as
 * written. PowerDNS's docs create the zone `example.org.` and then open
 * `…/zones/example.org.`: a run id mixed in (`example.org.-${RUN_ID}`) is no
 * zone name (no trailing dot, 422), and every later example missed the zone.
 * However the body is sent (`--data`, `-d`, `--data-raw`, `--data-binary`,
 * `--json`, a here-document, a `-K` config, a PowerShell or cmd command)
 * and whatever the name looks like (a DNS name, a slug, a file name), the
 * name stays the one written, in the body and in the later URL alike.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const BODY = `{"name":"example.org.", "kind": "Native"}`;
const OPEN =
  `curl -H 'X-API-Key: changeme' http://127.0.0.1:8081/api/v1/servers/localhost/zones/example.org.`;
const ZONES = "http://127.0.0.1:8081/api/v1/servers/localhost/zones";

const CREATES = [
  `curl -X POST --data '${BODY}' -H 'X-API-Key: changeme' ${ZONES}`,
  `curl -d '${BODY}' -H 'X-API-Key: changeme' ${ZONES}`,
  `curl --data-raw '${BODY}' -H 'X-API-Key: changeme' ${ZONES}`,
  `curl --data-binary '${BODY}' -H 'Content-Type: application/json' -H 'X-API-Key: changeme' ${ZONES}`,
  `curl --json '${BODY}' -H 'X-API-Key: changeme' ${ZONES}`,
  `curl -X PUT --json '${BODY}' -H 'X-API-Key: changeme' ${ZONES}`,
  `curl -H 'X-API-Key: changeme' ${ZONES} -d @- <<EOF\n${BODY}\nEOF`,
];

/** The text each name is sent as: in the body and the later URL, never with a run id. */
function assertAsWritten(yaml: string, name: string, at: string) {
  assert.doesNotMatch(yaml, /RUN_ID/, `${at}\n${yaml}`);
  const value = /^ {2}(\w+_name): (.*)$/m.exec(yaml);
  const sent = value ? value[2].replace(/^"|"$/g, "") : name;
  assert.equal(sent, name, `${at}\n${yaml}`);
}

Deno.test("a zone a command creates and a later one opens keeps its written name", () => {
  for (const create of CREATES) {
    const { yaml } = convertCurl(`${create}\n${OPEN}\n`);
    assertAsWritten(yaml, "example.org.", create);
    assert.ok(!yaml.includes("changeme"), yaml);
  }
});

Deno.test("names of every shape stay as written, in PowerShell and cmd too", () => {
  const cases: [string, string][] = [
    [
      `curl -X POST --json '{"name":"checkout-redesign"}' https://api.test/features\ncurl https://api.test/features/checkout-redesign`,
      "checkout-redesign",
    ],
    [
      `curl -X PUT --json '{"file":"notes.txt"}' https://api.test/files\ncurl https://api.test/files/notes.txt/meta`,
      "notes.txt",
    ],
    [
      `curl.exe -X POST --json '{"name":"example.org."}' https://api.test/zones\ncurl.exe https://api.test/zones/example.org.`,
      "example.org.",
    ],
    [
      `curl -X POST -d "{\\"name\\":\\"sale\\"}" https://api.test/items ^\n  -H "Content-Type: application/json"\ncurl https://api.test/items/sale`,
      "sale",
    ],
  ];
  for (const [text, name] of cases) assertAsWritten(convertCurl(text).yaml, name, text);
});

Deno.test("the name read from a -K config file is sent as written", () => {
  const config = `data = "${BODY.replaceAll('"', '\\"')}"\nheader = "X-API-Key: changeme"\n`;
  const files = {
    read: (path: string) => path === "zone.cfg" ? config : undefined,
    rebase: (path: string) => path,
  };
  const { yaml } = convertCurl(`curl -K zone.cfg ${ZONES}\n${OPEN}\n`, { files });
  assert.match(yaml, /kind: Native/, yaml);
  assertAsWritten(yaml, "example.org.", "-K zone.cfg");
});
